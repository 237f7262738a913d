/** The spreadsheets to choose from ("a file from another template"). */
import type { AppContext } from '../../context.ts';
import { listSpreadsheetChoices } from './repository.ts';
import { accountFor, type Principal } from '../../access/index.ts';

export async function listChoices(ctx: AppContext, principal: Principal) {
  const ownerId = accountFor(principal, 'templates:read');
  const rows = await listSpreadsheetChoices(ctx.db, ownerId);
  return rows.map((row) => ({
    templateId: row.template_id, templateName: row.template_name, excelName: row.name, totalRowCount: row.total_row_count, excelFileSize: row.file_size,
  }));
}
