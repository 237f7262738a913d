/**
 * Resolves a request's bearer token to its principal, once per request (route.ts): the signed-in
 * user, the account they act in (a child user: the parent's), the account's plan and entitlements.
 * API keys join here later with their own scopes.
 */
import { SheafError, billingPlanOf } from '@sheaf/shared';
import type { AppContext } from '../context.ts';
import { principalOf, type Principal } from '../access/index.ts';
import { verifyAccessToken } from '../modules/auth/index.ts';

export async function sessionPrincipal(ctx: AppContext, token: string): Promise<Principal> {
  // With the database: tokens of deleted or disabled accounts, or older than a password change, fail.
  // The same lookup answers the account the user acts in and its plan.
  const { uid, account } = await verifyAccessToken(ctx.config, token, ctx.db);
  if (!account) throw new SheafError('auth/unauthenticated');
  return principalOf({
    actorId: uid,
    parentId: account.parentUid,
    auth: 'session',
    plan: billingPlanOf(account.billingPlan),
    edition: ctx.config.EDITION,
  });
}
