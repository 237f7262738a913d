/**
 * The pure parts of generating: the request body, the client-made merge id, the poll cadence, the
 * cancel retries, the credits check and what a polled merge means for the status view.
 */
import {
  CANCEL_MIN_ROWS, CANCEL_RETRIES, CANCEL_RETRY_DELAY_MS, hasColumn, TEMPLATE_ID_LENGTH,
  type Merge, type MergeRequest, type Placeholder, type TemplateOutputSettings,
} from '@sheaf/shared';
import { normalizedProtection } from './outputRules.ts';
import { rowsData, type RowSelectionState, type SheetBounds } from './rowSelection.ts';
import type { MailMergeStatus } from './stepRules.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A 20-character id made by the client, so a retried start cannot run the merge twice. */
export function newMergeId(random: (bytes: Uint8Array) => Uint8Array = (bytes) => crypto.getRandomValues(bytes)): string {
  let id = '';
  while (id.length < TEMPLATE_ID_LENGTH) {
    for (const byte of random(new Uint8Array(32))) {
      // 248 = 4 * 62: bytes above it would favour the first letters.
      if (byte < 248 && id.length < TEMPLATE_ID_LENGTH) id += ALPHABET[byte % 62];
    }
  }
  return id;
}

export function buildMergeRequest(input: {
  mergeId: string;
  customName?: string | null;
  output: TemplateOutputSettings;
  selection: RowSelectionState;
  sheet: SheetBounds;
  limitToCredits?: boolean;
}): MergeRequest {
  const { output } = input;
  const pattern = output.fileNamePattern.trim();
  return {
    mergeId: input.mergeId,
    ...(input.customName ? { customName: input.customName } : {}),
    isCombinedOutput: output.isCombinedOutput,
    isKeepFormOutput: output.isKeepFormOutput,
    isOnlyPlaceholdersOutput: output.isOnlyPlaceholdersOutput,
    isTryRepair: output.isTryRepair,
    isCompressedOutput: output.isCompressedOutput,
    // File names only matter for separate documents.
    ...(!output.isCombinedOutput && pattern !== '' ? { fileNamePattern: pattern } : {}),
    // Word templates (docs/word-templates.md#merging): PDFs unless DOCX was chosen; DOCX files carry no password.
    passwordProtection: output.isSfdtPdfOutput === false ? null : normalizedProtection(output.passwordProtection),
    ...(output.isSfdtPdfOutput !== undefined ? { isSfdtPdfOutput: output.isSfdtPdfOutput } : {}),
    rowsData: rowsData(input.selection, input.sheet),
    ...(input.limitToCredits ? { limitToCredits: true } : {}),
  };
}

export const POLL_INTERVAL_MS = 1_000;
const POLL_MAX_DELAY_MS = 30_000;

/** Wait before the next poll: every second, backing off (doubling, at most 30 s) while offline. */
export function pollDelay(consecutiveNetworkFailures: number): number {
  if (consecutiveNetworkFailures <= 0) return POLL_INTERVAL_MS;
  return Math.min(POLL_MAX_DELAY_MS, POLL_INTERVAL_MS * 2 ** consecutiveNetworkFailures);
}

/** Cancel is offered from 10 rows (docs/merging.md#progress-and-cancel); smaller merges end before a click would land. */
export const canCancel = (rowsToGenerate: number): boolean => rowsToGenerate >= CANCEL_MIN_ROWS;

/**
 * Runs `attempt` and retries it (up to `retries` more times, `delayMs` apart) while `shouldRetry`
 * says so: the cancel call retries while the server does not know the merge yet
 * (docs/merging.md#progress-and-cancel).
 */
export async function retryWhile<T>(
  attempt: () => Promise<T>,
  shouldRetry: (error: unknown) => boolean,
  options: { retries?: number; delayMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<T> {
  const { retries = CANCEL_RETRIES, delayMs = CANCEL_RETRY_DELAY_MS } = options;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= retries || !shouldRetry(error)) throw error;
      await sleep(delayMs);
    }
  }
}

/** The status view a polled merge leads to. */
export function statusOfMerge(merge: Pick<Merge, 'status'>): MailMergeStatus {
  switch (merge.status) {
    case 'completed': return 'completed';
    case 'cancelled': return 'cancelled';
    case 'error': return 'error';
    default: return 'checker';
  }
}

export function progressPercent(merge: Pick<Merge, 'done' | 'total'> | null): number {
  if (!merge || merge.total <= 0) return 0;
  return Math.min(100, Math.round((merge.done / merge.total) * 100));
}

export type CreditsVerdict = { kind: 'enough' } | { kind: 'partial'; available: number } | { kind: 'none' };

/** Enough credits, enough for the first N documents only (the dialog's offer), or none at all. */
export function creditsVerdict(credits: { unlimited: boolean; available: number | null }, toBeUsed: number): CreditsVerdict {
  if (credits.unlimited || credits.available === null || credits.available >= toBeUsed) return { kind: 'enough' };
  return credits.available > 0 ? { kind: 'partial', available: credits.available } : { kind: 'none' };
}

/**
 * True when a sheet is attached and no placeholder fills from one of its headings
 * (docs/spreadsheets.md#column-matching).
 */
export function noPlaceholderMatches(placeholders: readonly Pick<Placeholder, 'column'>[], headings: readonly string[]): boolean {
  if (placeholders.length === 0 || headings.length === 0) return false;
  return !placeholders.some((placeholder) => hasColumn(headings, placeholder.column));
}
