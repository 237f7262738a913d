/**
 * /offline/success (docs/billing.md#the-billing-pages): the payment session named in the address is
 * checked once, SESSION_CHECK_DELAY_MS after the page opens; only a complete and paid session is a
 * purchase. Anything else (open, expired, unpaid, a session that is not this visitor's) reads the
 * same neutral way, so the page reveals nothing about other sessions.
 */
import { useEffect, useState } from 'react';
import { SESSION_CHECK_DELAY_MS } from '@sheaf/shared';

export interface SessionStatus {
  status: string;
  payment_status: string;
}

/** Stripe's words: status open | complete | expired; payment_status paid | unpaid | no_payment_required. */
export const isPaidSession = (session: SessionStatus): boolean => session.status === 'complete' && session.payment_status === 'paid';

const SESSION_ID = /^[\w-]{1,300}$/;

/** The session id of the address (Stripe's return URL fills `sessionId`; `session_id` is read too). */
export function sessionIdFrom(search: URLSearchParams): string | null {
  const value = (search.get('sessionId') ?? search.get('session_id') ?? '').trim();
  return SESSION_ID.test(value) ? value : null;
}

export type SuccessView = 'checking' | 'paid' | 'notPaid';

/** What the page shows: the spinner until the check answered, then thanks or the neutral failure. */
export function successView(check: { waiting: boolean; data: SessionStatus | undefined; failed: boolean }): SuccessView {
  if (check.failed) return 'notPaid';
  if (check.waiting || !check.data) return 'checking';
  return isPaidSession(check.data) ? 'paid' : 'notPaid';
}

/** False until SESSION_CHECK_DELAY_MS have passed since the page opened. */
export function useSessionCheckDelay(delayMs = SESSION_CHECK_DELAY_MS): boolean {
  const [due, setDue] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setDue(true), delayMs);
    return () => clearTimeout(timer);
  }, [delayMs]);
  return due;
}
