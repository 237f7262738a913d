/**
 * The operator's mail of a support request, as a job queued in the request's transaction: it runs once
 * the request is committed, and a mail relay that fails is tried again. The payload names the request
 * only; the job reads the text, the writer's address and the attachment when it runs.
 */
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../jobs/registry.ts';
import { supportMail } from './mail-texts.ts';
import { findSupportRequestById, markSupportRequestMailed } from './repository.ts';

export interface SupportMailPayload {
  requestId: string;
}

export const supportMailJob = defineJob<SupportMailPayload>({
  name: 'support-mail',
  // Small and quick, like the licence mail: never behind a long merge or mailing.
  queue: 'maintenance',
  payload: z.object({ requestId: z.string().min(1).max(100) }),
  maxAttempts: 5,
});

export async function sendSupportMail(ctx: AppContext, { requestId }: SupportMailPayload): Promise<void> {
  const to = ctx.config.SUPPORT_EMAIL;
  const row = await findSupportRequestById(ctx.db, requestId);
  // Gone with its account, already mailed (a repeated run), or the setting was removed since.
  if (!row || row.mailed_at || !to) return;
  const attachment = row.attachment_key ? await ctx.blobs.get(row.attachment_key).catch(() => null) : null;
  const mail = supportMail({
    reference: row.reference,
    topic: row.topic,
    subject: row.subject,
    message: row.message,
    userId: row.user_id,
    ownerId: row.owner_id,
    email: row.email,
    language: row.language,
    createdAt: row.created_at,
    requestId: row.request_id,
    attachment: attachment && row.attachment_name ? { name: row.attachment_name, size: attachment.byteLength } : null,
    diagnostics: row.diagnostics,
  });
  await ctx.mailer.send({
    to,
    ...mail,
    ...(row.email ? { replyTo: row.email } : {}),
    ...(attachment && row.attachment_name
      ? { attachments: [{ filename: row.attachment_name, content: Buffer.from(attachment), contentType: row.attachment_type ?? 'application/octet-stream' }] }
      : {}),
  });
  await markSupportRequestMailed(ctx.db, row.id);
  ctx.log.info({ reference: row.reference }, 'support request mailed');
}

export function registerSupportMailJob(ctx: AppContext): void {
  ctx.jobs.register(supportMailJob, (payload) => sendSupportMail(ctx, payload));
}
