/** Server state of the email report page: the events of the last days and one message's history. */
import { queryOptions } from '@tanstack/react-query';
import { EMAIL_REPORT_DAYS } from '@sheaf/shared';
import { ApiError } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { routeQuery } from '../../api/routeQuery.ts';

/** While the server cannot be reached, the report is asked for again this often. */
export const OFFLINE_RETRY_MS = 5_000;

const isNetworkError = (error: unknown) => error instanceof ApiError && error.isNetwork;

/** The account's (or the user's) events of the last EMAIL_REPORT_DAYS days. */
export const emailReportQuery = (scope: 'me' | 'all') => queryOptions({
  ...routeQuery(queryKeys.emailReport.scope(scope), 'emailReport', { query: { scope, days: EMAIL_REPORT_DAYS } }),
  // Offline: ask again every few seconds until the server answers.
  refetchInterval: (query) => (isNetworkError(query.state.error) ? OFFLINE_RETRY_MS : false),
  retry: (count, error) => isNetworkError(error) && count < 1,
});

/** Every event of one message (the events dialog). */
export const messageEventsQuery = (messageId: string | undefined) => queryOptions({
  ...routeQuery(queryKeys.emailReport.message(messageId), 'messageEvents', { params: { messageId: messageId ?? '' } }),
  enabled: messageId !== undefined,
});
