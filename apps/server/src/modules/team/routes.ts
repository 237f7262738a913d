/** /v1 routes of child users (docs/accounts.md#child-users). */
import type { FastifyInstance } from 'fastify';
import { routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import {
  deleteChildUser, disableChildUser, enableChildUser, listChildUsers, registerChild, resetChildPassword,
} from './service.ts';

export function registerTeamRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.registerChild, ({ principal, body }) => registerChild(ctx, principal, body));
  handle(app, routes.listChildUsers, ({ principal }) => listChildUsers(ctx, principal));
  handle(app, routes.disableChildUser, ({ principal, params }) => disableChildUser(ctx, principal, params.uid));
  handle(app, routes.enableChildUser, ({ principal, params }) => enableChildUser(ctx, principal, params.uid));
  handle(app, routes.resetChildPassword, ({ principal, params, request }) => resetChildPassword(ctx, principal, params.uid, request.ip));
  handle(app, routes.deleteChildUser, ({ principal, params }) => deleteChildUser(ctx, principal, params.uid));
}
