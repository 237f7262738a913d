/** Server state of the email part of step 4: the mailing report of a merge whose documents are emailed. */
import { queryOptions } from '@tanstack/react-query';
import { REPORT_POLL_MS, type ExcelMeta, type MailingReport, type RecipientsCheck } from '@sheaf/shared';
import { ApiError } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { routeQueryFn } from '../../api/routeQuery.ts';

const isNetworkError = (error: unknown) => error instanceof ApiError && error.isNetwork;

/**
 * The mailing report (docs/email.md#mailing-status-in-the-wizard), polled through the query while the
 * mailing is active (the wizard enables it): every REPORT_POLL_MS after each answer, one call at a time.
 * A network failure is retried every REPORT_POLL_MS (at once when the browser is back online) with
 * `failureReason` saying so; any other failure ends the poll in error.
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

/** The spreadsheet as far as the recipients check depends on it: another name, size or header row is another check. */
const sheetOf = (excel: ExcelMeta | null) => (excel ? `${excel.excelName}:${excel.totalRowCount}:${excel.headersRowNo}` : null);

/**
 * The recipients check of a column (docs/email.md#mailing-status-in-the-wizard): valid and invalid
 * addresses in the sheet.
 */
export const recipientsCheckQuery = (templateId: string, column: string | null, excel: ExcelMeta | null) => queryOptions({
  queryKey: queryKeys.templates.recipientsCheck(templateId, column, sheetOf(excel)),
  queryFn: (context): Promise<RecipientsCheck> => routeQueryFn('recipientsCheck', { params: { id: templateId }, query: { column: column ?? undefined } })(context),
  enabled: templateId !== '' && column !== null && excel !== null,
  staleTime: 30_000,
});
