/** SQL of a user's custom fonts; the family name is the key placeholders use. */
import type { Queryable } from '../../adapters/db/types.ts';

export interface FontRow {
  name: string;
  file_name: string;
  size: number;
  /** Where the file is (blobLayout.font.file); null: stored before file ids, under the old key. */
  file_id: string | null;
}

export async function listFontRows(db: Queryable, ownerId: string): Promise<FontRow[]> {
  return db.query<FontRow>('SELECT name, file_name, size, file_id FROM fonts WHERE owner_id = $1 ORDER BY name', [ownerId]);
}

export async function findFontRow(db: Queryable, ownerId: string, name: string): Promise<FontRow | undefined> {
  const rows = await db.query<FontRow>('SELECT name, file_name, size, file_id FROM fonts WHERE owner_id = $1 AND name = $2', [ownerId, name]);
  return rows[0];
}

/**
 * Adds a font, replacing one of the same family name (in the caller's transaction; uploads of one family
 * are serialised by an advisory lock). Returns the replaced font's file id (null: the old key), undefined
 * when there was none.
 */
export async function upsertFontRow(tx: Queryable, ownerId: string, font: FontRow): Promise<{ previous: string | null } | undefined> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`font:${ownerId}:${font.name}`]);
  const [old] = await tx.query<{ file_id: string | null }>('SELECT file_id FROM fonts WHERE owner_id = $1 AND name = $2', [ownerId, font.name]);
  await tx.query(
    `INSERT INTO fonts (owner_id, name, file_name, size, file_id) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (owner_id, name) DO UPDATE SET file_name = EXCLUDED.file_name, size = EXCLUDED.size, file_id = EXCLUDED.file_id, created_at = now()`,
    [ownerId, font.name, font.file_name, font.size, font.file_id],
  );
  return old ? { previous: old.file_id } : undefined;
}

/** Removes a font; returns its file id (null: the old key), or undefined when there was none. */
export async function deleteFontRow(db: Queryable, ownerId: string, name: string): Promise<{ fileId: string | null } | undefined> {
  const [row] = await db.query<{ file_id: string | null }>('DELETE FROM fonts WHERE owner_id = $1 AND name = $2 RETURNING file_id', [ownerId, name]);
  return row ? { fileId: row.file_id } : undefined;
}
