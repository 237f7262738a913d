/** /v1 routes of support requests (docs/support.md). */
import type { FastifyInstance } from 'fastify';
import { SUPPORT_ATTACHMENT_MAX_BYTES, routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { readUploadForm } from '../../http/upload.ts';
import { createSupportRequest, getSupportRequest, listSupportRequests } from './service.ts';

export function registerSupportRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.createSupportRequest, async ({ principal, request }) =>
    createSupportRequest(ctx, principal, await readUploadForm(request, SUPPORT_ATTACHMENT_MAX_BYTES, 'support/attachment-too-large'), request.id));
  handle(app, routes.listSupportRequests, ({ principal }) => listSupportRequests(ctx, principal));
  handle(app, routes.getSupportRequest, ({ principal, params }) => getSupportRequest(ctx, principal, params.reference));
}
