/**
 * What a merge asks of the module that sends its documents on (the mailing), without importing it.
 * The email module provides these at boot (provideMergeFollowUp); without a provider a merge never
 * emails. What the merge announces (completed, stopped) goes over the event bus: merges/events.ts.
 */
import type { Merge, MergeRequest } from '@sheaf/shared';
import type { OutputDocument, SheetData } from '@sheaf/engine';
import type { AppContext } from '../../context.ts';
import type { MergeRow } from './repository.ts';

export interface FollowUpCheck {
  ownerId: string;
  templateId: string;
  mergeId: string;
  request: MergeRequest;
  sheet: SheetData;
  /** The data rows the merge will make. */
  rows: readonly number[];
  isCombined: boolean;
}

/** Told of every document of a separate-documents merge as the ZIP is written. */
export interface DocumentOutput {
  /** The document was written with its local header at `offset` of the ZIP (a ranged merge: told once the ZIP is assembled). */
  write(document: Pick<OutputDocument, 'index' | 'fileName' | 'rowNumbers' | 'byteLength'>, offset: number): Promise<void>;
  /** Every document is written. */
  close(): Promise<void>;
  /** The ZIP is stored: keep what was collected (before the completing transaction). */
  store(): Promise<void>;
  /** The merge failed or stopped: drop what was collected. */
  abort(): void;
}

export interface MergeFollowUp {
  /**
   * Checks the follow-up the request asks for (its email part) over the rows the merge will make,
   * and returns what to freeze into the merge (JSON; null: none). Throws the catalogue error a user
   * can act on.
   */
  prepare(input: FollowUpCheck): Promise<unknown>;
  /** Merge.mailingStatus of each merge (null: it does not email). */
  statuses(ownerId: string, rows: readonly MergeRow[]): Promise<Map<string, Merge['mailingStatus']>>;
  /** The per-document output of a merge that froze a follow-up; `scratchFile` is the job's to clean up. */
  documentOutput(merge: MergeRow, sheet: SheetData, scratchFile: string): DocumentOutput | undefined;
}

const providers = new WeakMap<AppContext, MergeFollowUp>();

export function provideMergeFollowUp(ctx: AppContext, followUp: MergeFollowUp): void {
  providers.set(ctx, followUp);
}

export function followUpOf(ctx: AppContext): MergeFollowUp | undefined {
  return providers.get(ctx);
}

/** The frozen follow-up of a stored merge (what prepare() returned), or null. */
export function frozenFollowUp(row: Pick<MergeRow, 'request'>): unknown {
  return (row.request as { email?: unknown }).email ?? null;
}
