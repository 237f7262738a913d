/**
 * The principal: who acts in a request, resolved once by the route layer (http/principal.ts) and
 * handed to services instead of a bare owner id. Services scope their data to `accountId`; the
 * access module (can.ts) decides what the principal may do.
 */
import { SCOPES, entitlements, type AuthMethod, type BillingPlan, type Edition, type Entitlements, type Scope } from '@sheaf/shared';

export interface Principal {
  /** The user who acts (a child user acts as themselves...). */
  readonly actorId: string;
  /** ...inside the account that owns the data: the parent's for a child user, else their own. */
  readonly accountId: string;
  readonly auth: AuthMethod;
  readonly scopes: ReadonlySet<Scope>;
  /** The account's plan, the edition, and what they allow together (the plan catalogue). */
  readonly plan: BillingPlan;
  readonly edition: Edition;
  readonly entitlements: Entitlements;
}

export interface PrincipalFacts {
  actorId: string;
  /** users.parent_uid of the actor: set for child users. */
  parentId?: string | null;
  auth: AuthMethod;
  /** Default: every scope (a signed-in session). */
  scopes?: Iterable<Scope>;
  plan: BillingPlan;
  edition: Edition;
}

export function principalOf(facts: PrincipalFacts): Principal {
  return Object.freeze({
    actorId: facts.actorId,
    accountId: facts.parentId || facts.actorId,
    auth: facts.auth,
    scopes: new Set(facts.scopes ?? SCOPES),
    plan: facts.plan,
    edition: facts.edition,
    entitlements: entitlements(facts.plan, facts.edition),
  });
}

/** A child user: acts inside another user's account. */
export const isChild = (principal: Principal): boolean => principal.actorId !== principal.accountId;
