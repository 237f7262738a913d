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
  handle(app, routes.updateEmailSettings, ({ principal, params, body }) => updateEmailSettings(ctx, principal, params.id, body));
  handle(app, routes.uploadAttachment, async ({ principal, params, file }) => {
    const upload = await file(MAX_ATTACHMENTS_TOTAL_BYTES, 'email/attachments-too-large');
    return { staticAttachments: await uploadAttachment(ctx, principal, params.id, upload.fileName, upload.bytes) };
  });
  handle(app, routes.deleteAttachment, async ({ principal, params }) => ({ staticAttachments: await deleteAttachment(ctx, principal, params.id, params.name) }));
  handle(app, routes.recipientsCheck, ({ principal, params, query }) => recipientsCheck(ctx, principal, params.id, query.column));
  handle(app, routes.testEmail, ({ principal, params, body }) => sendTestEmail(ctx, principal, params.id, body));
  handle(app, routes.mailingReport, ({ principal, params }) => mailingReport(ctx, principal, params.id, params.mergeId));
  handle(app, routes.emailReport, ({ principal, query }) => emailReport(ctx, principal, query.scope, query.days));
  handle(app, routes.messageEvents, ({ principal, params }) => messageEvents(ctx, principal, params.messageId));
  registerTrackingRoutes(app, ctx);
}
