/** SQL of a template's email settings (templates.email jsonb), scoped to the template's owner; the email module uses them through index.ts. */
import type { Queryable } from '../../adapters/db/types.ts';
import { json } from '../../adapters/db/index.ts';

/** The stored settings, locked for a read-modify-write; undefined when the template is not the owner's. */
export async function lockEmailSettings(tx: Queryable, ownerId: string, templateId: string): Promise<{ email: Record<string, unknown> | null } | undefined> {
  const [row] = await tx.query<{ email: Record<string, unknown> | null }>(
    'SELECT email FROM templates WHERE owner_id = $1 AND id = $2 FOR UPDATE',
    [ownerId, templateId],
  );
  return row;
}

export async function readEmailSettings(q: Queryable, ownerId: string, templateId: string): Promise<{ email: Record<string, unknown> | null } | undefined> {
  const [row] = await q.query<{ email: Record<string, unknown> | null }>('SELECT email FROM templates WHERE owner_id = $1 AND id = $2', [ownerId, templateId]);
  return row;
}

export async function saveEmailSettings(tx: Queryable, ownerId: string, templateId: string, email: unknown): Promise<void> {
  await tx.query('UPDATE templates SET email = $3::jsonb, updated_at = now() WHERE owner_id = $1 AND id = $2', [ownerId, templateId, json(email)]);
}
