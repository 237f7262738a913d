/**
 * The data check's call (docs/data-check.md): POST /templates/:id/verifyExcelData/stream with the body
 * of a merge request, read as it arrives (ndjson.ts) through the web client's `stream`, so the token,
 * its refresh, the host failover and the recent-errors record are the client's own. What a failure
 * means for the dialog follows spec section 8: 400 is "too large" (no retry helps), anything else
 * "try again" with Retry; a cancelled check (the dialog closed) says nothing.
 */
import type { DataCheckRequest, DataIssue, TemplateDetail } from '@sheaf/shared';
import { api, ApiError } from '../../api/client.ts';
import { isAbortError } from '../../api/transport.ts';
import { isCatalogueCode } from '../../i18n/errors.ts';
import { buildMergeRequest } from '../wizard/mergeRules.ts';
import { ALL_ROWS, type SheetBounds } from '../wizard/rowSelection.ts';
import { readIssues, StreamedError } from './ndjson.ts';

/**
 * What is checked: every data row of the sheet (so step 4 can tell how many of whichever rows it
 * makes were flagged, and excluding them works from any selection), with the template's saved
 * output settings (file-name pattern, passwords) and whether its email is on.
 */
export function dataCheckRequest(template: Pick<TemplateDetail, 'customName' | 'output' | 'email'>, sheet: SheetBounds): DataCheckRequest {
  const { mergeId: _noMergeId, ...request } = buildMergeRequest({ mergeId: '', output: template.output, selection: ALL_ROWS, sheet });
  return { ...request, email: template.email.isActive ? { isActive: true } : null };
}

/** Runs the check, handing over the issues of each chunk as it arrives; rejects with an ApiError. */
export async function streamDataCheck(
  templateId: string,
  body: DataCheckRequest,
  options: { signal?: AbortSignal; onIssues: (issues: DataIssue[]) => void },
): Promise<{ skipped: number }> {
  const response = await api.stream('verifyExcelData', { params: { id: templateId }, body, signal: options.signal });
  return readAnswer(response, options);
}

/** The answer's body to its end; a cut connection is a network failure, an error line the server's error. */
export async function readAnswer(response: Response, options: { signal?: AbortSignal; onIssues: (issues: DataIssue[]) => void }): Promise<{ skipped: number }> {
  if (!response.body) return { skipped: 0 };
  try {
    return await readIssues(response.body, options.onIssues, options.signal);
  } catch (error) {
    if (options.signal?.aborted || isAbortError(error)) throw ApiError.cancelled();
    if (error instanceof StreamedError) throw new ApiError({ status: 500, code: error.code, message: error.message, params: error.params });
    throw ApiError.network(error);
  }
}

export interface CheckFailure {
  code: string;
  params?: Record<string, string | number>;
  retry: boolean;
}

/**
 * The message and the offer of a failed check; null when it was cancelled (nothing to say). A 400 is
 * the spec's "too large" (check/too-large); when the server names another refusal of the catalogue
 * (no spreadsheet any more: sheet/missing) that is said instead. Neither is helped by trying again.
 */
export function checkFailure(error: unknown): CheckFailure | null {
  if (error instanceof ApiError && error.isCancelled) return null;
  if (error instanceof ApiError && error.status === 400) {
    const named = error.code !== 'check/too-large' && error.code !== 'generic/something-wrong' && isCatalogueCode(error.code);
    return named ? { code: error.code, params: error.params, retry: false } : { code: 'check/too-large', retry: false };
  }
  return { code: 'check/failed', retry: true };
}
