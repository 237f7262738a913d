/** The email calls of the shared contract (one line each; spam score: spam-routes.ts) and the public tracking URLs. */
import type { FastifyInstance } from 'fastify';
import { MAX_ATTACHMENTS_TOTAL_BYTES, routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { emailReport, mailingReport, messageEvents } from './report.ts';
import { deleteAttachment, recipientsCheck, updateEmailSettings, uploadAttachment } from './settings.ts';
import { sendTestEmail } from './test-email.ts';
import { registerTrackingRoutes } from './tracking-routes.ts';

export function registerEmailRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.updateEmailSettings, ({ user, params, body }) => updateEmailSettings(ctx, user.uid, params.id, body));
  handle(app, routes.uploadAttachment, async ({ user, params, file }) => {
    const upload = await file(MAX_ATTACHMENTS_TOTAL_BYTES, 'email/attachments-too-large');
    return { staticAttachments: await uploadAttachment(ctx, user.uid, params.id, upload.fileName, upload.bytes) };
  });
  handle(app, routes.deleteAttachment, async ({ user, params }) => ({ staticAttachments: await deleteAttachment(ctx, user.uid, params.id, params.name) }));
  handle(app, routes.recipientsCheck, ({ user, params, query }) => recipientsCheck(ctx, user.uid, params.id, query.column));
  handle(app, routes.testEmail, ({ user, params, body }) => sendTestEmail(ctx, user.uid, params.id, body));
  handle(app, routes.mailingReport, ({ user, params }) => mailingReport(ctx, user.uid, params.id, params.mergeId));
  handle(app, routes.emailReport, ({ user, query }) => emailReport(ctx, user.uid, query.scope, query.days));
  handle(app, routes.messageEvents, ({ user, params }) => messageEvents(ctx, user.uid, params.messageId));
  registerTrackingRoutes(app, ctx);
}
