/**
 * The signed-in user's own account calls (spec sections 2 and 6); email, password and deletion: auth/routes.ts. The route layer verifies the token
 * with the database (verifyAccessToken with ctx.db): deleted or disabled accounts and tokens older than
 * the last password change never reach these handlers.
 */
import type { FastifyInstance } from 'fastify';
import { routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { getCredits } from './quota.ts';
import { getMe, updateMe } from './service.ts';

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.me, async ({ user }) => getMe(ctx, user.uid));
  handle(app, routes.updateMe, async ({ user, body }) => updateMe(ctx, user.uid, body));
  handle(app, routes.credits, async ({ user, query }) => getCredits(ctx.db, user.uid, query.toBeUsed));
}
