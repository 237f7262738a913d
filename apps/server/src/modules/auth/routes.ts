/** The account calls: register, login, token refresh, logout, password reset; email, password and deletion of an account. */
import type { FastifyInstance } from 'fastify';
import { routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { confirmPasswordReset, login, register, requestPasswordReset } from './service.ts';
import { endSession, refreshSession } from './sessions.ts';
import { changeEmail, changePassword, deleteAccount } from './account.ts';

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.register, async ({ body }) => register(ctx, body));
  handle(app, routes.login, async ({ body, request }) => login(ctx, body.email, body.password, request.ip));
  handle(app, routes.token, async ({ body }) => {
    const session = await refreshSession(ctx, body.refresh_token);
    return { id_token: session.token, refresh_token: session.refreshToken, user_id: session.uid, expires_in: session.expiresIn };
  });
  handle(app, routes.logout, async ({ body }) => {
    await endSession(ctx, body.refreshToken);
    return { ok: true as const };
  });
  handle(app, routes.resetPassword, async ({ body, request }) => requestPasswordReset(ctx, body.email, body.language, request.ip));
  handle(app, routes.resetPasswordConfirm, async ({ body, request }) => confirmPasswordReset(ctx, body, request.ip));
  handle(app, routes.changeEmail, async ({ principal, body, request }) => changeEmail(ctx, principal, body, request.ip));
  handle(app, routes.changePassword, async ({ principal, body, request }) => changePassword(ctx, principal, body, request.ip));
  handle(app, routes.deleteAccount, async ({ principal, body, request }) => {
    await deleteAccount(ctx, principal, body.password, request.ip);
    return { ok: true as const };
  });
}
