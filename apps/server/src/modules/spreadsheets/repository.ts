/** SQL of the spreadsheet attached to a template (one per template), scoped to its owner. */
import type { ExcelMeta } from '@sheaf/shared';
import type { Queryable } from '../../adapters/db/types.ts';

export interface SpreadsheetRow {
  template_id: string;
  owner_id: string;
  name: string;
  file_size: number;
  checksum: string;
  headers_row_no: number;
  headers: string[];
  total_row_count: number;
  first_row: number;
  last_row: number;
  created_at: Date;
}

export interface SpreadsheetFacts {
  name: string;
  fileSize: number;
  checksum: string;
  headersRowNo: number;
  headers: string[];
  totalRowCount: number;
  firstRow: number;
  lastRow: number;
}

export async function findSpreadsheetRow(db: Queryable, ownerId: string, templateId: string): Promise<SpreadsheetRow | undefined> {
  const rows = await db.query<SpreadsheetRow>('SELECT * FROM spreadsheets WHERE owner_id = $1 AND template_id = $2', [ownerId, templateId]);
  return rows[0];
}

export async function upsertSpreadsheetRow(db: Queryable, ownerId: string, templateId: string, facts: SpreadsheetFacts): Promise<void> {
  await db.query(
    `INSERT INTO spreadsheets (template_id, owner_id, name, file_size, checksum, headers_row_no, headers, total_row_count, first_row, last_row)
     SELECT id, owner_id, $3, $4, $5, $6, $7::jsonb, $8, $9, $10 FROM templates WHERE owner_id = $1 AND id = $2
     ON CONFLICT (template_id) DO UPDATE SET name = EXCLUDED.name, file_size = EXCLUDED.file_size, checksum = EXCLUDED.checksum,
       headers_row_no = EXCLUDED.headers_row_no, headers = EXCLUDED.headers, total_row_count = EXCLUDED.total_row_count,
       first_row = EXCLUDED.first_row, last_row = EXCLUDED.last_row, created_at = now()`,
    [ownerId, templateId, facts.name, facts.fileSize, facts.checksum, facts.headersRowNo, JSON.stringify(facts.headers),
      facts.totalRowCount, facts.firstRow, facts.lastRow],
  );
}

export async function deleteSpreadsheetRow(db: Queryable, ownerId: string, templateId: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM spreadsheets WHERE owner_id = $1 AND template_id = $2 RETURNING template_id', [ownerId, templateId]);
  return rows.length > 0;
}

export interface SpreadsheetChoiceRow {
  template_id: string;
  template_name: string;
  name: string;
  total_row_count: number;
  file_size: number;
}

export async function listSpreadsheetChoices(db: Queryable, ownerId: string): Promise<SpreadsheetChoiceRow[]> {
  return db.query<SpreadsheetChoiceRow>(
    `SELECT s.template_id, COALESCE(t.custom_name, t.name) AS template_name, s.name, s.total_row_count, s.file_size
       FROM spreadsheets s JOIN templates t ON t.id = s.template_id AND t.owner_id = s.owner_id
      WHERE s.owner_id = $1
      ORDER BY s.created_at DESC, s.template_id`,
    [ownerId],
  );
}

export function toExcelMeta(row: SpreadsheetRow): ExcelMeta {
  return {
    excelName: row.name,
    excelFileSize: row.file_size,
    headersRowNo: row.headers_row_no,
    headers: row.headers,
    totalRowCount: row.total_row_count,
    firstRow: row.first_row,
    lastRow: row.last_row,
  };
}
