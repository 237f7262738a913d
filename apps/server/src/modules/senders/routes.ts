/** /v1 routes of the user's senders. */
import type { FastifyInstance } from 'fastify';
import { routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { createSender, deleteSender, getSender, listSenders, updateSender, verifySender } from './service.ts';

export function registerSenderRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.listSenders, ({ principal }) => listSenders(ctx, principal));
  handle(app, routes.getSender, ({ principal, params }) => getSender(ctx, principal, params.senderId));
  handle(app, routes.createSender, ({ principal, body }) => createSender(ctx, principal, body));
  handle(app, routes.verifySender, ({ principal, body }) => verifySender(ctx, principal, body));
  handle(app, routes.updateSender, ({ principal, params, body }) => updateSender(ctx, principal, params.senderId, body));
  handle(app, routes.deleteSender, ({ principal, params }) => deleteSender(ctx, principal, params.senderId));
}
