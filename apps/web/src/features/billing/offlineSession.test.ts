// @vitest-environment node
/** /offline/success: only a complete and paid session is a purchase; anything else reads the same neutral way. */
import { describe, expect, it } from 'vitest';
import { isPaidSession, sessionIdFrom, successView } from './offlineSession.ts';

describe('the payment session of /offline/success', () => {
  it('is a purchase only when complete and paid', () => {
    expect(isPaidSession({ status: 'complete', payment_status: 'paid' })).toBe(true);
    expect(isPaidSession({ status: 'complete', payment_status: 'unpaid' })).toBe(false);
    expect(isPaidSession({ status: 'complete', payment_status: 'no_payment_required' })).toBe(false);
    expect(isPaidSession({ status: 'open', payment_status: 'paid' })).toBe(false);
    expect(isPaidSession({ status: 'expired', payment_status: 'unpaid' })).toBe(false);
  });

  it('shows the spinner until the check answered, then thanks or the neutral failure', () => {
    expect(successView({ waiting: true, data: undefined, failed: false })).toBe('checking');
    expect(successView({ waiting: false, data: { status: 'complete', payment_status: 'paid' }, failed: false })).toBe('paid');
    expect(successView({ waiting: false, data: { status: 'open', payment_status: 'unpaid' }, failed: false })).toBe('notPaid');
    // Not this visitor's session (404) or any other failure: the same page as an unpaid one.
    expect(successView({ waiting: false, data: undefined, failed: true })).toBe('notPaid');
  });

  it('reads the session id from the address', () => {
    expect(sessionIdFrom(new URLSearchParams('sessionId=cs_test_a1B2'))).toBe('cs_test_a1B2');
    expect(sessionIdFrom(new URLSearchParams('session_id=cs_test_x'))).toBe('cs_test_x');
    expect(sessionIdFrom(new URLSearchParams(''))).toBeNull();
    expect(sessionIdFrom(new URLSearchParams('sessionId='))).toBeNull();
    expect(sessionIdFrom(new URLSearchParams('sessionId=<script>'))).toBeNull();
  });
});
