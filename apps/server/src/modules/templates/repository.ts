/**
 * SQL of templates and their images. Every statement filters on owner_id: another user's template
 * is simply not found. JSON columns are sent as text and cast, so both drivers store the same thing.
 */
import { SheafError, type Placeholder } from '@sheaf/shared';
import type { Db, Queryable } from '../../adapters/db/types.ts';

export interface PageSize {
  width: number;
  height: number;
}

export interface TemplateRow {
  id: string;
  owner_id: string;
  name: string;
  custom_name: string | null;
  template_type: 'pdf' | 'sfdt';
  checksum: string;
  /** The stored PDF's file id (blobLayout.template.pdf); null: stored before file ids, under the old key. */
  file_id: string | null;
  file_size: number;
  num_pages: number;
  pages: PageSize[];
  is_encrypted: boolean;
  has_thumbnail: boolean;
  placeholders: Placeholder[];
  headers_row_no: number;
  /** Stored output settings (see output-settings.ts); passwords inside are encrypted. */
  output: Record<string, unknown>;
  split_button_selection: string | null;
  email: Record<string, unknown> | null;
  /** Static attachment name -> file id (a name not here: stored before file ids). */
  attachment_files: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

/** What the library list needs: no placeholder bodies, just their count. */
export interface TemplateListRow extends Omit<TemplateRow, 'placeholders' | 'output' | 'email' | 'pages' | 'file_id' | 'attachment_files'> {
  placeholder_count: number;
  excel_name: string | null;
}

export interface NewTemplate {
  id: string;
  ownerId: string;
  /** 'sfdt': a Word template (its file is a DOCX); default 'pdf'. */
  templateType?: 'pdf' | 'sfdt';
  name: string;
  customName: string | null;
  checksum: string;
  fileId: string | null;
  fileSize: number;
  numPages: number;
  pages: PageSize[];
  isEncrypted: boolean;
  placeholders: Placeholder[];
  headersRowNo: number;
  output: Record<string, unknown>;
}

export interface FileFacts {
  name?: string;
  checksum: string;
  fileId: string;
  fileSize: number;
  numPages: number;
  pages: PageSize[];
  isEncrypted: boolean;
}

const json = (value: unknown) => JSON.stringify(value);

export async function listTemplateRows(db: Db, ownerId: string): Promise<TemplateListRow[]> {
  return db.query<TemplateListRow>(
    `SELECT t.id, t.owner_id, t.name, t.custom_name, t.template_type, t.checksum, t.file_size, t.num_pages,
            t.is_encrypted, t.has_thumbnail, t.headers_row_no, t.split_button_selection, t.created_at, t.updated_at,
            jsonb_array_length(t.placeholders) AS placeholder_count, s.name AS excel_name
       FROM templates t LEFT JOIN spreadsheets s ON s.template_id = t.id AND s.owner_id = t.owner_id
      WHERE t.owner_id = $1
      ORDER BY t.updated_at DESC, t.id`,
    [ownerId],
  );
}

export async function findTemplateRow(db: Queryable, ownerId: string, id: string): Promise<TemplateRow | undefined> {
  const rows = await db.query<TemplateRow>('SELECT * FROM templates WHERE owner_id = $1 AND id = $2', [ownerId, id]);
  return rows[0];
}

export async function insertTemplateRow(db: Queryable, template: NewTemplate): Promise<void> {
  await db.query(
    `INSERT INTO templates (id, owner_id, name, custom_name, checksum, file_size, num_pages, pages, is_encrypted,
                            placeholders, headers_row_no, output, file_id, template_type)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10::jsonb, $11, $12::jsonb, $13, $14)`,
    [template.id, template.ownerId, template.name, template.customName, template.checksum, template.fileSize,
      template.numPages, json(template.pages), template.isEncrypted, json(template.placeholders), template.headersRowNo,
      json(template.output), template.fileId, template.templateType ?? 'pdf'],
  );
}

/**
 * Switches the template to a new PDF (in the caller's transaction; the thumbnail is stale until it is made
 * again). Returns the file id (null: the old fixed key) and checksum it had, or undefined when the template is gone.
 */
export async function updateTemplateFile(
  tx: Queryable, ownerId: string, id: string, facts: FileFacts,
): Promise<{ previous: string | null; previousChecksum: string } | undefined> {
  const [row] = await tx.query<{ file_id: string | null; checksum: string }>(
    'SELECT file_id, checksum FROM templates WHERE owner_id = $1 AND id = $2 FOR UPDATE', [ownerId, id],
  );
  if (!row) return undefined;
  await tx.query(
    `UPDATE templates SET name = COALESCE($3, name), checksum = $4, file_size = $5, num_pages = $6, pages = $7::jsonb,
            is_encrypted = $8, file_id = $9, has_thumbnail = false, updated_at = now()
      WHERE owner_id = $1 AND id = $2`,
    [ownerId, id, facts.name ?? null, facts.checksum, facts.fileSize, facts.numPages, json(facts.pages), facts.isEncrypted, facts.fileId],
  );
  return { previous: row.file_id, previousChecksum: row.checksum };
}

/** The template's current PDF file id (undefined when the template is gone). */
export async function findTemplateFileId(db: Queryable, ownerId: string, id: string): Promise<string | null | undefined> {
  const [row] = await db.query<{ file_id: string | null }>('SELECT file_id FROM templates WHERE owner_id = $1 AND id = $2', [ownerId, id]);
  return row ? row.file_id : undefined;
}

/** Flags the thumbnail as made for this version of the file; false when the file changed meanwhile. */
export async function markThumbnail(db: Queryable, ownerId: string, id: string, checksum: string): Promise<boolean> {
  const rows = await db.query(
    'UPDATE templates SET has_thumbnail = true WHERE owner_id = $1 AND id = $2 AND checksum = $3 RETURNING id',
    [ownerId, id, checksum],
  );
  return rows.length > 0;
}

export interface TemplateChanges {
  customName?: string;
  headersRowNo?: number;
  output?: Record<string, unknown>;
  placeholders?: Placeholder[];
  splitButtonSelection?: string;
}

export async function updateTemplateFields(db: Queryable, ownerId: string, id: string, changes: TemplateChanges): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [ownerId, id];
  const set = (column: string, value: unknown, cast = '') => {
    params.push(value);
    sets.push(`${column} = $${params.length}${cast}`);
  };
  if (changes.customName !== undefined) set('custom_name', changes.customName);
  if (changes.headersRowNo !== undefined) set('headers_row_no', changes.headersRowNo);
  if (changes.output !== undefined) set('output', json(changes.output), '::jsonb');
  if (changes.placeholders !== undefined) set('placeholders', json(changes.placeholders), '::jsonb');
  if (changes.splitButtonSelection !== undefined) set('split_button_selection', changes.splitButtonSelection);
  if (sets.length === 0) return;
  await db.query(`UPDATE templates SET ${sets.join(', ')}, updated_at = now() WHERE owner_id = $1 AND id = $2`, params as string[]);
}

export async function deleteTemplateRow(db: Queryable, ownerId: string, id: string): Promise<void> {
  await db.query('DELETE FROM templates WHERE owner_id = $1 AND id = $2', [ownerId, id]);
}

export async function listTemplateIdsOfAccount(db: Queryable, ownerId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM templates WHERE owner_id = $1', [ownerId]);
  return rows.map((row) => row.id);
}

/** Serialises changes of one template (a merge start locks it while it looks for a running merge). */
export async function lockTemplateRow(db: Queryable, ownerId: string, id: string): Promise<void> {
  await db.query('SELECT id FROM templates WHERE id = $1 AND owner_id = $2 FOR UPDATE', [id, ownerId]);
}

// Images: rows carry no owner_id of their own, so every statement goes through the owner's template.

export interface ImageRow {
  name: string;
  size: number;
}

/** An image with where its file is (file_id null: stored before file ids, under the old key). */
export interface StoredImageRow extends ImageRow {
  file_id: string | null;
}

/** The images as the API lists them. */
export async function listImageRows(db: Queryable, ownerId: string, templateId: string): Promise<ImageRow[]> {
  return db.query<ImageRow>(
    `SELECT i.name, i.size FROM template_images i JOIN templates t ON t.id = i.template_id
      WHERE t.owner_id = $1 AND i.template_id = $2 ORDER BY i.name`,
    [ownerId, templateId],
  );
}

export async function listStoredImages(db: Queryable, ownerId: string, templateId: string): Promise<StoredImageRow[]> {
  return db.query<StoredImageRow>(
    `SELECT i.name, i.size, i.file_id FROM template_images i JOIN templates t ON t.id = i.template_id
      WHERE t.owner_id = $1 AND i.template_id = $2 ORDER BY i.name`,
    [ownerId, templateId],
  );
}

export async function findImageFileId(db: Queryable, ownerId: string, templateId: string, name: string): Promise<string | null | undefined> {
  const [row] = await db.query<{ file_id: string | null }>(
    `SELECT i.file_id FROM template_images i JOIN templates t ON t.id = i.template_id
      WHERE t.owner_id = $1 AND i.template_id = $2 AND i.name = $3`,
    [ownerId, templateId, name],
  );
  return row ? row.file_id : undefined;
}

/**
 * Adds or replaces an image (in the caller's transaction, the template row locked first so two uploads of
 * one name are serialised). Returns the file id the replaced image had (null: the old key), undefined when
 * there was none; throws template/not-found when the template is gone.
 */
export async function upsertImageRow(tx: Queryable, ownerId: string, templateId: string, image: StoredImageRow): Promise<{ previous: string | null } | undefined> {
  const [template] = await tx.query('SELECT id FROM templates WHERE owner_id = $1 AND id = $2 FOR UPDATE', [ownerId, templateId]);
  if (!template) throw new SheafError('template/not-found');
  const [old] = await tx.query<{ file_id: string | null }>('SELECT file_id FROM template_images WHERE template_id = $1 AND name = $2', [templateId, image.name]);
  await tx.query(
    `INSERT INTO template_images (template_id, name, size, file_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (template_id, name) DO UPDATE SET size = EXCLUDED.size, file_id = EXCLUDED.file_id`,
    [templateId, image.name, image.size, image.file_id],
  );
  return old ? { previous: old.file_id } : undefined;
}

/** Removes an image; returns its file id (null: the old key), or undefined when there was none. */
export async function deleteImageRow(db: Queryable, ownerId: string, templateId: string, name: string): Promise<{ fileId: string | null } | undefined> {
  const [row] = await db.query<{ file_id: string | null }>(
    `DELETE FROM template_images i USING templates t
      WHERE t.id = i.template_id AND t.owner_id = $1 AND i.template_id = $2 AND i.name = $3 RETURNING i.file_id`,
    [ownerId, templateId, name],
  );
  return row ? { fileId: row.file_id } : undefined;
}
