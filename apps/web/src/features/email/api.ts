/** Server state of the email part of step 4: the mailing report of a merge whose documents are emailed. */
import { queryOptions } from '@tanstack/react-query';
import { REPORT_POLL_MS, type MailingReport } from '@sheaf/shared';
import { ApiError } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { routeQueryFn } from '../../api/routeQuery.ts';

const isNetworkError = (error: unknown) => error instanceof ApiError && error.isNetwork;

/**
 * The mailing report (spec section 4), polled through the query while the mailing is active (the
 * wizard enables it): every REPORT_POLL_MS after each answer, one call at a time. A network failure
 * is retried every REPORT_POLL_MS (at once when the browser is back online) with `failureReason`
 * saying so; any other failure ends the poll in error.
 */
export const mailingReportQuery = (templateId: string, mergeId: string) => queryOptions({
  queryKey: queryKeys.merges.mailingReport(templateId, mergeId),
  queryFn: (context): Promise<MailingReport> => routeQueryFn('mailingReport', { params: { id: templateId, mergeId } })(context),
  refetchInterval: (query) => (query.state.status === 'error' ? false : REPORT_POLL_MS),
  refetchIntervalInBackground: true,
  refetchOnReconnect: 'always',
  staleTime: 0,
  retry: (_failures, error) => isNetworkError(error),
  retryDelay: REPORT_POLL_MS,
});
