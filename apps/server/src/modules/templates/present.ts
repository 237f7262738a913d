/** Template rows as the API shows them: TemplateSummary (library) and TemplateDetail (wizard). */
import { DEFAULT_EMAIL_SETTINGS, TemplateEmailSettingsSchema, type TemplateDetail, type TemplateEmailSettings, type TemplateSummary } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { findSpreadsheetRow, toExcelMeta } from '../spreadsheets/index.ts';
import { readOutput } from './output-settings.ts';
import { listImageRows, listTemplateRows, type TemplateListRow, type TemplateRow } from './repository.ts';
import { accountFor, type Principal } from '../../access/index.ts';

/** The stored email settings over the defaults; a stored value that no longer parses falls back to them. */
export function emailSettingsOf(stored: Record<string, unknown> | null): TemplateEmailSettings {
  const parsed = TemplateEmailSettingsSchema.safeParse({ ...DEFAULT_EMAIL_SETTINGS, ...(stored ?? {}) });
  return parsed.success ? parsed.data : { ...DEFAULT_EMAIL_SETTINGS };
}

function thumbnailUrl(row: Pick<TemplateRow, 'id' | 'has_thumbnail' | 'checksum'>): string | null {
  return row.has_thumbnail ? `/v1/templates/${row.id}/thumbnail?v=${row.checksum}` : null;
}

function summaryFields(row: TemplateListRow | TemplateRow) {
  return {
    id: row.id,
    name: row.name,
    customName: row.custom_name,
    templateType: row.template_type,
    numPages: row.num_pages,
    isEncrypted: row.is_encrypted,
    thumbnailUrl: thumbnailUrl(row),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The library, newest first, without the merge histories (the merges module adds them: it sits above templates). */
export async function listSummaries(ctx: AppContext, principal: Principal): Promise<TemplateSummary[]> {
  const ownerId = accountFor(principal, 'templates:read');
  const rows = await listTemplateRows(ctx.db, ownerId);
  return rows.map((row) => ({
    ...summaryFields(row),
    excelName: row.excel_name,
    placeholderCount: Number(row.placeholder_count),
    merges: [],
  }));
}

export async function toDetail(ctx: AppContext, row: TemplateRow): Promise<TemplateDetail> {
  const [sheet, images] = await Promise.all([
    findSpreadsheetRow(ctx.db, row.owner_id, row.id),
    listImageRows(ctx.db, row.owner_id, row.id),
  ]);
  return {
    ...summaryFields(row),
    excelName: sheet?.name ?? null,
    placeholderCount: row.placeholders.length,
    checksum: row.checksum,
    placeholders: row.placeholders,
    images,
    pages: row.pages,
    headersRowNo: row.headers_row_no,
    output: readOutput(ctx.config.encryptionKey, row.output),
    splitButtonSelection: row.split_button_selection,
    excel: sheet ? toExcelMeta(sheet) : null,
    email: emailSettingsOf(row.email),
  };
}
