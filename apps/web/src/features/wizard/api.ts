/**
 * Server state of the wizard: credits, the spreadsheets to reuse, the attached sheet's rows and the
 * merge's progress, as query options from the route table under keys from `queryKeys`.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ExcelMeta } from '@sheaf/shared';
import { queryKeys } from '../../api/queryKeys.ts';
import { routeQuery } from '../../api/routeQuery.ts';

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
