/**
 * SQL of a template's email settings (templates.email jsonb) and where its static attachments' files are
 * (templates.attachment_files: name -> file id, blobLayout.template.attachment), scoped to the template's
 * owner; the email module uses them through index.ts.
 */
import type { Queryable } from '../../adapters/db/types.ts';
import { json } from '../../adapters/db/index.ts';

export interface StoredEmailSettings {
  email: Record<string, unknown> | null;
  /** Attachment name -> file id; a listed name not here was stored before file ids (the old key). */
  attachment_files: Record<string, string>;
}

/** The stored settings, locked for a read-modify-write; undefined when the template is not the owner's. */
export async function lockEmailSettings(tx: Queryable, ownerId: string, templateId: string): Promise<StoredEmailSettings | undefined> {
  const [row] = await tx.query<StoredEmailSettings>(
    'SELECT email, attachment_files FROM templates WHERE owner_id = $1 AND id = $2 FOR UPDATE',
    [ownerId, templateId],
  );
  return row;
}

export async function readEmailSettings(q: Queryable, ownerId: string, templateId: string): Promise<StoredEmailSettings | undefined> {
  const [row] = await q.query<StoredEmailSettings>('SELECT email, attachment_files FROM templates WHERE owner_id = $1 AND id = $2', [ownerId, templateId]);
  return row;
}

/** Saves the settings and, when given, the attachments' file ids (both in the caller's transaction). */
export async function saveEmailSettings(tx: Queryable, ownerId: string, templateId: string, email: unknown, attachmentFiles?: Record<string, string>): Promise<void> {
  if (attachmentFiles === undefined) {
    await tx.query('UPDATE templates SET email = $3::jsonb, updated_at = now() WHERE owner_id = $1 AND id = $2', [ownerId, templateId, json(email)]);
    return;
  }
  await tx.query(
    'UPDATE templates SET email = $3::jsonb, attachment_files = $4::jsonb, updated_at = now() WHERE owner_id = $1 AND id = $2',
    [ownerId, templateId, json(email), json(attachmentFiles)],
  );
}
