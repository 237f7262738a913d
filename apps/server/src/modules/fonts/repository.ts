/** SQL of a user's custom fonts; the family name is the key placeholders use. */
import type { Queryable } from '../../adapters/db/types.ts';

export interface FontRow {
  name: string;
  file_name: string;
  size: number;
}

export async function listFontRows(db: Queryable, ownerId: string): Promise<FontRow[]> {
  return db.query<FontRow>('SELECT name, file_name, size FROM fonts WHERE owner_id = $1 ORDER BY name', [ownerId]);
}

export async function findFontRow(db: Queryable, ownerId: string, name: string): Promise<FontRow | undefined> {
  const rows = await db.query<FontRow>('SELECT name, file_name, size FROM fonts WHERE owner_id = $1 AND name = $2', [ownerId, name]);
  return rows[0];
}

/** A font of the same family name is replaced. */
export async function upsertFontRow(db: Queryable, ownerId: string, font: FontRow): Promise<void> {
  await db.query(
    `INSERT INTO fonts (owner_id, name, file_name, size) VALUES ($1, $2, $3, $4)
     ON CONFLICT (owner_id, name) DO UPDATE SET file_name = EXCLUDED.file_name, size = EXCLUDED.size, created_at = now()`,
    [ownerId, font.name, font.file_name, font.size],
  );
}

export async function deleteFontRow(db: Queryable, ownerId: string, name: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM fonts WHERE owner_id = $1 AND name = $2 RETURNING name', [ownerId, name]);
  return rows.length > 0;
}
