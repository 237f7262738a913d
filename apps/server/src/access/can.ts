/**
 * The one access decision: may this principal do `action` (to a resource of some account)? Services
 * call assertCan before they touch data; the answer depends on the principal's scopes, on whether it
 * is a child user (never billing or user management), and on whose resource it is.
 */
import { ACCOUNT_OWNER_SCOPES, SheafError, type Scope } from '@sheaf/shared';
import { isChild, type Principal } from './principal.ts';

/** What a service does, named by the scope it needs. */
export type Action = Scope;

export interface Resource {
  /** The account that owns the resource. */
  accountId: string;
}

export function can(principal: Principal, action: Action, resource?: Resource): boolean {
  // Another account's data: never (services answer "not found" for it, so ids cannot be probed).
  if (resource && resource.accountId !== principal.accountId) return false;
  if (!principal.scopes.has(action)) return false;
  // A child user works inside the parent's account but never on its billing or its users.
  if (isChild(principal) && ACCOUNT_OWNER_SCOPES.includes(action)) return false;
  return true;
}

/** Throws access/forbidden (403) unless the principal may. */
export function assertCan(principal: Principal, action: Action, resource?: Resource): void {
  if (!can(principal, action, resource)) throw new SheafError('access/forbidden', { action });
}

/** assertCan, then the account the service scopes its data to. */
export function accountFor(principal: Principal, action: Action): string {
  assertCan(principal, action);
  return principal.accountId;
}

/** assertCan, then the acting user (their own profile, password, login). */
export function actorFor(principal: Principal, action: Action): string {
  assertCan(principal, action);
  return principal.actorId;
}
