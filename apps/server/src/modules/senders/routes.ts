/** /v1 routes of the user's senders. */
import type { FastifyInstance } from 'fastify';
import { routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { createSender, deleteSender, getSender, listSenders, updateSender, verifySender } from './service.ts';

export function registerSenderRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.listSenders, ({ user }) => listSenders(ctx, user.uid));
  handle(app, routes.getSender, ({ user, params }) => getSender(ctx, user.uid, params.senderId));
  handle(app, routes.createSender, ({ user, body }) => createSender(ctx, user.uid, body));
  handle(app, routes.verifySender, ({ user, body }) => verifySender(ctx, user.uid, body));
  handle(app, routes.updateSender, ({ user, params, body }) => updateSender(ctx, user.uid, params.senderId, body));
  handle(app, routes.deleteSender, ({ user, params }) => deleteSender(ctx, user.uid, params.senderId));
}
