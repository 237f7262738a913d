/**
 * The pure parts of /users (docs/accounts.md#child-users): the create-user form's checks (the
 * registration form's, without company and terms), the seats line and which plan would add users.
 */
import { BILLING_PLANS, PLAN_CATALOGUE, entitlements, type BillingPlan, type ChildUser, type Edition, type Seats } from '@sheaf/shared';
import { validateRegistration } from '../auth/registerValidation.ts';

export interface ChildUserValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
}

export type ChildUserField = keyof ChildUserValues;

export const EMPTY_CHILD_USER: ChildUserValues = { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' };

/**
 * The registration form's checks, in its order and with its messages (keys of the `auth` namespace),
 * for the fields a child user has: no company, no terms to accept.
 */
export function validateChildUser(values: ChildUserValues): Partial<Record<ChildUserField, string>> {
  const { company: _company, acceptTerms: _terms, ...errors } = validateRegistration({ ...values, company: '', acceptTerms: true });
  return errors;
}

/** The account's users against its plan's: "2 of 5 users"; `full` once no child user can be added. */
export function seatState(seats: Seats): { used: number; limit: number; full: boolean } {
  return { used: seats.used, limit: seats.limit, full: seats.used >= seats.limit };
}

/**
 * The plan sold on this edition that allows more users than `limit` (the fewest more, then the
 * catalogue's order), with its users; null when no plan of the edition has more.
 */
export function planWithMoreUsers(limit: number, edition: Edition): { plan: BillingPlan; users: number } | null {
  const candidates = BILLING_PLANS
    .filter((plan) => PLAN_CATALOGUE[plan].edition === edition && PLAN_CATALOGUE[plan].price !== null)
    .map((plan) => ({ plan, users: entitlements(plan, edition).users as number }))
    .filter((candidate) => candidate.users > limit);
  candidates.sort((a, b) => a.users - b.users);
  return candidates[0] ?? null;
}

/** "Ada Lovelace", else the address (a name is never blank on the server, but the row must read). */
export function childUserName(user: Pick<ChildUser, 'firstName' | 'lastName' | 'email'>): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}
