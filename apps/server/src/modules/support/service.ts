/**
 * Support requests (docs/support.md): checked against their limits, rate-limited per user, stored with a
 * short reference, the attachment in the blob store, and mailed to SUPPORT_EMAIL by a job queued in the
 * same transaction (unset: stored only, for `sheaf support`).
 */
import {
  SUPPORT_MESSAGE_MAX, SUPPORT_SUBJECT_MAX, SheafError, SupportDiagnosticsSchema, SupportRequestFieldsSchema, isSheafError,
  type ErrorCode, type SupportRequest, type SupportRequestFields,
} from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { accountFor, actorFor, type Principal } from '../../access/index.ts';
import { newId } from '../../ids.ts';
import { supportRequestKeys, takeAttempts } from '../auth/index.ts';
import { findUserById } from '../users/index.ts';
import { supportMailJob } from './mail-job.ts';
import { normalizeSupportReference, newSupportReference } from './reference.ts';
import { findOwnSupportRequest, insertSupportRequest, listOwnSupportRequests, type SupportRow } from './repository.ts';

/** The multipart form as the route read it (http/upload.ts readUploadForm). */
export interface SupportForm {
  fields: Record<string, string>;
  /** Fields cut at the multipart limit (64 KB). */
  truncated: ReadonlySet<string>;
  file: { fileName: string; mimeType: string; bytes: Uint8Array } | null;
}

/** How many of their requests a user sees listed. */
const LIST_LIMIT = 50;
/** Draws of a reference before giving up (a clash is one in hundreds of millions). */
const REFERENCE_TRIES = 8;

export function presentSupportRequest(row: SupportRow): SupportRequest {
  return {
    reference: row.reference,
    topic: row.topic,
    subject: row.subject,
    message: row.message,
    attachment: row.attachment_name !== null ? { name: row.attachment_name, size: row.attachment_size ?? 0 } : null,
    withDiagnostics: row.diagnostics !== null,
    createdAt: row.created_at.toISOString(),
  };
}

/** The catalogue code of a field's first problem, with the limit it names. */
function fieldError(field: 'subject' | 'message', code: string | undefined): SheafError {
  const max = field === 'subject' ? SUPPORT_SUBJECT_MAX : SUPPORT_MESSAGE_MAX;
  const own = [`support/${field}-required`, `support/${field}-too-long`] as const satisfies readonly ErrorCode[];
  const known: ErrorCode = own.find((candidate) => candidate === code) ?? 'generic/invalid-input';
  return new SheafError(known, known === 'generic/invalid-input' ? { detail: field } : { max });
}

/** The form's text fields, checked: limits in characters, diagnostics as the schema allows. */
export function parseSupportFields(form: Pick<SupportForm, 'fields' | 'truncated'>): SupportRequestFields {
  const { fields, truncated } = form;
  // A field cut at the multipart limit (64 KB) was longer than any limit in characters.
  if (truncated.has('subject')) throw fieldError('subject', 'support/subject-too-long');
  if (truncated.has('message')) throw fieldError('message', 'support/message-too-long');
  if (truncated.has('diagnostics')) throw new SheafError('generic/invalid-input', { detail: 'diagnostics: too long' });
  let diagnostics: unknown;
  if (fields.diagnostics !== undefined && fields.diagnostics !== '') {
    try {
      diagnostics = JSON.parse(fields.diagnostics);
    } catch {
      throw new SheafError('generic/invalid-input', { detail: 'diagnostics: not JSON' });
    }
    const checked = SupportDiagnosticsSchema.safeParse(diagnostics);
    if (!checked.success) throw new SheafError('generic/invalid-input', { detail: `diagnostics: ${checked.error.issues[0]?.message ?? 'invalid'}` });
  }
  const parsed = SupportRequestFieldsSchema.safeParse({
    topic: fields.topic || undefined, subject: fields.subject ?? '', message: fields.message ?? '', diagnostics, language: fields.language || undefined,
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path[0];
  if (field === 'subject' || field === 'message') throw fieldError(field, issue.message);
  throw new SheafError('generic/invalid-input', { detail: `${String(field ?? 'form')}: ${issue.message}` });
}

/** Takes one of the user's support attempts; over the limit: 429 support/too-many-requests. */
async function takeSupportAttempt(ctx: AppContext, userId: string): Promise<void> {
  try {
    await takeAttempts(ctx.db, supportRequestKeys(userId));
  } catch (error) {
    if (isSheafError(error) && error.code === 'generic/too-many-attempts') throw new SheafError('support/too-many-requests');
    throw error;
  }
}

/** POST /support/requests. */
export async function createSupportRequest(ctx: AppContext, principal: Principal, form: SupportForm, requestId: string | null): Promise<SupportRequest> {
  const userId = actorFor(principal, 'account');
  const ownerId = accountFor(principal, 'account');
  const fields = parseSupportFields(form);
  // Counted once the request is one the server takes: a form refused for its fields costs nothing.
  await takeSupportAttempt(ctx, userId);
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new SheafError('auth/unauthenticated');

  const id = newId();
  const file = form.file;
  const attachment = file ? { key: blobLayout.support.attachment(ownerId, id, file.fileName), name: file.fileName, type: file.mimeType || 'application/octet-stream', size: file.bytes.byteLength } : null;
  if (file && attachment) await ctx.blobs.put(attachment.key, file.bytes);
  const mailed = Boolean(ctx.config.SUPPORT_EMAIL);
  let row: SupportRow | undefined;
  try {
    row = await ctx.db.transaction(async (tx) => {
      for (let attempt = 0; attempt < REFERENCE_TRIES; attempt += 1) {
        const reference = newSupportReference();
        const inserted = await insertSupportRequest(tx, {
          id, reference, ownerId, userId, topic: fields.topic, subject: fields.subject, message: fields.message,
          language: fields.language ?? user.language, attachment, diagnostics: fields.diagnostics ?? null, requestId,
        });
        if (!inserted) continue;
        if (mailed) await ctx.jobs.enqueue(supportMailJob, { requestId: id }, { id: `${supportMailJob.name}.${id}`, tx });
        return findOwnSupportRequest(tx, ownerId, userId, reference);
      }
      throw new Error('support request: no free reference after several tries');
    });
  } catch (error) {
    if (attachment) await ctx.blobs.delete(attachment.key).catch(() => undefined);
    throw error;
  }
  if (!row) throw new Error('support request: the stored row is not there');
  if (mailed) ctx.jobs.wake();
  else ctx.log.info({ reference: row.reference, topic: row.topic }, 'support request stored (no SUPPORT_EMAIL: read it with `sheaf support show`)');
  return presentSupportRequest(row);
}

/** GET /support/requests: the user's own, newest first. */
export async function listSupportRequests(ctx: AppContext, principal: Principal): Promise<{ requests: SupportRequest[] }> {
  const userId = actorFor(principal, 'account');
  const rows = await listOwnSupportRequests(ctx.db, accountFor(principal, 'account'), userId, LIST_LIMIT);
  return { requests: rows.map(presentSupportRequest) };
}

/** GET /support/requests/:reference: the user's own; anyone else's is not found. */
export async function getSupportRequest(ctx: AppContext, principal: Principal, reference: string): Promise<SupportRequest> {
  const userId = actorFor(principal, 'account');
  const row = await findOwnSupportRequest(ctx.db, accountFor(principal, 'account'), userId, normalizeSupportReference(reference));
  if (!row) throw new SheafError('support/not-found');
  return presentSupportRequest(row);
}
