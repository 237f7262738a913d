/**
 * The signed-in user's own account calls (spec sections 2 and 6). The route layer verifies the token
 * with the database (verifyAccessToken with ctx.db): deleted or disabled accounts and tokens older than
 * the last password change never reach these handlers.
 */
import type { FastifyInstance } from 'fastify';
import { routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { getCredits } from './quota.ts';
import { changeEmail, changePassword, deleteAccount, getMe, updateMe } from './service.ts';

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.me, async ({ user }) => getMe(ctx, user.uid));
  handle(app, routes.updateMe, async ({ user, body }) => updateMe(ctx, user.uid, body));
  handle(app, routes.changeEmail, async ({ user, body, request }) => changeEmail(ctx, user.uid, body, request.ip));
  handle(app, routes.changePassword, async ({ user, body, request }) => changePassword(ctx, user.uid, body, request.ip));
  handle(app, routes.deleteAccount, async ({ user, body, request }) => {
    await deleteAccount(ctx, user.uid, body.password, request.ip);
    return { ok: true as const };
  });
  handle(app, routes.credits, async ({ user, query }) => getCredits(ctx.db, user.uid, query.toBeUsed));
}
