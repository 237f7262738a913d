/**
 * The signed-in user's own account calls (docs/accounts.md); email, password and deletion: auth/routes.ts. The route layer verifies the token
 * with the database (verifyAccessToken with ctx.db): deleted or disabled accounts and tokens older than
 * the last password change never reach these handlers.
 */
import type { FastifyInstance } from 'fastify';
import { routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { credits, getMe, updateMe } from './service.ts';

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.me, async ({ principal }) => getMe(ctx, principal));
  handle(app, routes.updateMe, async ({ principal, body }) => updateMe(ctx, principal, body));
  handle(app, routes.credits, async ({ principal, query }) => credits(ctx, principal, query.toBeUsed));
}
