/**
 * Server state of the wizard: credits, the spreadsheets to reuse, the attached sheet's rows and the
 * merge's progress, as query options from the route table under keys from `queryKeys`.
 */
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ExcelMeta, Merge } from '@sheaf/shared';
import { api, ApiError } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { invalidateAfterMerge, routeQuery } from '../../api/routeQuery.ts';
import { POLL_INTERVAL_MS, pollDelay } from './mergeRules.ts';

/** The credits balance if `toBeUsed` more documents are made; the table keeps the last numbers while the count changes. */
export const creditsQuery = (toBeUsed: number) => queryOptions({
  ...routeQuery(queryKeys.credits.forCount(toBeUsed), 'credits', { query: { toBeUsed } }),
  placeholderData: keepPreviousData,
  staleTime: 10_000,
});

/** The user's other spreadsheets, to reuse one at step 3; always asked afresh when the dialog opens. */
export const spreadsheetsQuery = () => queryOptions({ ...routeQuery(queryKeys.spreadsheets, 'listExcelChoices'), staleTime: 0 });

/** The attached sheet's rows for its preview; another sheet (name, size, header row) is another key. */
export const sheetPreviewQuery = (templateId: string, excel: Pick<ExcelMeta, 'excelName' | 'excelFileSize' | 'headersRowNo'>) => queryOptions({
  ...routeQuery(queryKeys.templates.sheetPreview(templateId, [excel.excelName, excel.excelFileSize, excel.headersRowNo]), 'getExcel', { params: { id: templateId } }),
  staleTime: 5 * 60_000,
});

/** A network failure or an unwell server: the merge goes on on the server, so the poll asks again. */
export function isTransientError(error: unknown): boolean {
  return error instanceof ApiError && (error.isNetwork || error.status >= 500);
}

const isRunning = (merge: Pick<Merge, 'status'>) => merge.status === 'queued' || merge.status === 'generating';

/**
 * One merge's progress (docs/merging.md#progress-and-cancel), polled through the query while the wizard
 * follows it: every POLL_INTERVAL_MS after each answer while it runs, never two calls at once, and no
 * more once an answer says it ended. Network and server failures are retried with backoff (2 s, 4 s, ...
 * at most 30 s; `failureReason` says so meanwhile), at once when the browser is back online; any
 * other failure ends the poll in error. The answer that shows the end refreshes the counter.
 */
export const mergeQuery = (templateId: string, mergeId: string) => queryOptions({
  queryKey: queryKeys.merges.one(templateId, mergeId),
  queryFn: async ({ signal, client, queryKey }): Promise<Merge> => {
    const merge = await api.call('getMerge', { params: { id: templateId, mergeId }, signal });
    const before = client.getQueryData<Merge>(queryKey);
    if (!isRunning(merge) && (!before || isRunning(before))) invalidateAfterMerge(client);
    return merge;
  },
  refetchInterval: (query) => {
    const merge = query.state.data;
    if (query.state.status === 'error' || (merge && !isRunning(merge))) return false;
    return POLL_INTERVAL_MS;
  },
  refetchIntervalInBackground: true,
  refetchOnReconnect: 'always',
  staleTime: 0,
  retry: (_failures, error) => isTransientError(error),
  retryDelay: (failures) => pollDelay(failures + 1),
});

/**
 * A merge answer from outside the poll (the start or cancel answer, or a merge found running after a
 * reload) goes into the same cache entry; an answer that ends a merge refreshes the counter. A merge
 * that runs is in the template's history now: the list is asked for again when home shows next, so
 * it polls the merge there and sees it end (and the counter change) if the user goes home meanwhile.
 */
export function mergeAnswered(queryClient: QueryClient, merge: Merge): void {
  const key = queryKeys.merges.one(merge.templateId, merge.mergeId);
  const before = queryClient.getQueryData<Merge>(key);
  queryClient.setQueryData(key, merge);
  if (!isRunning(merge) && (!before || isRunning(before))) invalidateAfterMerge(queryClient);
  else if (isRunning(merge) && !before) void queryClient.invalidateQueries({ queryKey: queryKeys.templates.list() });
}

/**
 * One template's details for the wizard (placeholders, sheet, output and email settings). Asked for
 * when the wizard opens it; after that every answer that carries a new copy replaces it
 * (templateDetail.ts), so it never goes stale while open; closing the wizard drops it.
 */
export const templateDetailQuery = (templateId: string) => queryOptions({
  ...routeQuery(queryKeys.templates.detail(templateId), 'getTemplate', { params: { id: templateId } }),
  staleTime: Infinity,
  retry: (failures: number, error: unknown) => failures < 2 && isTransientError(error),
});

/** A template's merges, newest first: after a reload, one may still be generating or mailing. */
export const mergesOfTemplateQuery = (templateId: string) => queryOptions({
  queryKey: queryKeys.merges.ofTemplate(templateId),
  queryFn: ({ signal }) => api.call('listMerges', { params: { id: templateId }, signal }).then((answer) => answer.merges),
  staleTime: 0,
  gcTime: 0,
});

/** A merge of the wizard's own (not made through the API) still being generated. */
export function runningMergeOf(merges: readonly Merge[]): Merge | null {
  return merges.find((merge) => isRunning(merge) && !merge.madeViaApi) ?? null;
}

/** A merge of the wizard's own whose documents are made and still being emailed. */
export function mailingMergeOf(merges: readonly Merge[]): Merge | null {
  return merges.find((merge) => (merge.mailingStatus === 'queued' || merge.mailingStatus === 'sending') && !merge.madeViaApi && merge.status === 'completed') ?? null;
}

/** After an upload the server renders the thumbnail in the background: the template is asked for again this often... */
export const THUMBNAIL_CHECK_MS = 1_500;
/** ...at most this many times. */
export const THUMBNAIL_CHECKS = 10;

/**
 * The wizard's template polled (through its own query) until the server has its thumbnail; every
 * answer replaces the cached template, so the card shows the picture as soon as it exists.
 */
export const thumbnailArrivalQuery = (templateId: string) => queryOptions({
  ...templateDetailQuery(templateId),
  refetchInterval: (query) => {
    const detail = query.state.data;
    if (!detail || detail.thumbnailUrl !== null || detail.isEncrypted) return false;
    // dataUpdateCount counts the first answer (or the upload's copy) too.
    return query.state.dataUpdateCount + query.state.errorUpdateCount > THUMBNAIL_CHECKS ? false : THUMBNAIL_CHECK_MS;
  },
  refetchIntervalInBackground: true,
});
