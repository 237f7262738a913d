import { describe, expect, it } from 'vitest';
import type { EmailEvent, MailingReport } from '@sheaf/shared';
import {
  afterLeavingLastStep, INITIAL_MAILING, mailingBackAction, resumed, showsMailingControl, triggered, withMergeId, withPollFailure, withReport,
  withSendFailure, type MailingState,
} from './mailingRules.ts';

const MERGE = 'M'.repeat(20);
const event = (index: number, status: EmailEvent['status'] = 'accepted'): EmailEvent => ({
  messageId: `m${index}`, mergeId: MERGE, templateId: 'T'.repeat(20), rowNumber: index + 2, recipient: `r${index}@example.com`,
  subject: 'Hello', status, date: '2026-11-25T10:00:00.000Z', detail: null,
});
function report(options: { events?: number; total?: number; queued?: number; isCancelled?: boolean; mailingStatus?: MailingReport['mailingStatus'] } = {}): MailingReport {
  const { events = 0, total = 20, queued = total - events, isCancelled = false, mailingStatus = 'sending' } = options;
  return {
    events: Array.from({ length: events }, (_, index) => event(index)),
    eventCounts: { total, queued, accepted: events, delivery: 0, opened: 0, clicked: 0, softBounce: 0, hardBounce: 0, failed: 0, cancelled: 0 },
    service: 'smtp', isCancelled, mailingStatus, error: null,
  };
}
const polled = (...reports: MailingReport[]): MailingState => reports.reduce(withReport, withMergeId(triggered(), MERGE));

describe('mailing status', () => {
  it('starts triggered with the merge id of the request, and shows the report once events arrive', () => {
    expect(withMergeId(triggered(), MERGE)).toMatchObject({ status: 'triggered', mergeId: MERGE });
    expect(polled(report({ events: 0 })).status).toBe('triggered');
    expect(polled(report({ events: 0 }), report({ events: 3 })).status).toBe('report');
  });

  it('completes when every message has its event and the server says the mailing ended', () => {
    expect(polled(report({ events: 20, mailingStatus: 'sending' })).status).toBe('report');
    expect(polled(report({ events: 19, total: 20, mailingStatus: 'completed' })).status).toBe('report');
    const done = polled(report({ events: 5 }), report({ events: 20, mailingStatus: 'completed' }));
    expect(done.status).toBe('completed');
    // A late answer after the end changes nothing.
    expect(withReport(done, report({ events: 3 }))).toBe(done);
  });

  it('is cancelled after isCancelled comes back three times in a row', () => {
    const once = polled(report({ events: 5, queued: 15, isCancelled: true }));
    expect(once).toMatchObject({ status: 'report', cancelledInARow: 1 });
    const twice = withReport(once, report({ events: 5, queued: 15, isCancelled: true }));
    expect(twice).toMatchObject({ status: 'report', cancelledInARow: 2 });
    expect(withReport(twice, report({ events: 5, queued: 15, isCancelled: true })).status).toBe('cancelled');
  });

  it('counts cancelled reports again from zero when the queued count changes', () => {
    const state = polled(
      report({ events: 5, queued: 15, isCancelled: true }),
      report({ events: 5, queued: 15, isCancelled: true }),
      report({ events: 8, queued: 12, isCancelled: true }), // still draining: reset
    );
    expect(state).toMatchObject({ status: 'report', cancelledInARow: 0 });
    const settled = [1, 2, 3].reduce((current) => withReport(current, report({ events: 8, queued: 12, isCancelled: true })), state);
    expect(settled.status).toBe('cancelled');
  });

  it('resets the cancel count when a report is not cancelled', () => {
    const state = polled(report({ events: 5, isCancelled: true }), report({ events: 5, isCancelled: true }), report({ events: 5 }));
    expect(state.cancelledInARow).toBe(0);
    expect(withReport(state, report({ events: 5, isCancelled: true })).status).toBe('report');
  });

  it('keeps polling through network errors and shows the offline notice until the next answer', () => {
    const offline = withPollFailure(polled(report({ events: 2 })), { network: true });
    expect(offline).toMatchObject({ status: 'report', offline: true });
    expect(withReport(offline, report({ events: 4 }))).toMatchObject({ status: 'report', offline: false });
  });

  it('ends in error on a server error of the poll, of the send or of the mailing itself', () => {
    const error = { code: 'email/sender-gone', message: 'gone' };
    expect(withPollFailure(polled(report({ events: 2 })), { network: false, error })).toMatchObject({ status: 'error', error });
    expect(withSendFailure(triggered(), { code: 'generic/network', message: 'offline', offline: true })).toMatchObject({ status: 'error', offline: true });
    expect(polled({ ...report({ events: 2 }), mailingStatus: 'error', error })).toMatchObject({ status: 'error', error });
    // Nothing is mailing: a failed merge does not invent a mailing error.
    expect(withSendFailure(INITIAL_MAILING, error)).toBe(INITIAL_MAILING);
  });

  it('follows the Back rules: disabled while triggered, reset after an error, merge rules otherwise', () => {
    expect(mailingBackAction(3, 3, 'triggered')).toBe('disabled');
    expect(mailingBackAction(3, 3, 'error')).toBe('resetStatus');
    expect(mailingBackAction(3, 3, 'report')).toBeNull();
    expect(mailingBackAction(3, 3, 'initial')).toBeNull();
    expect(mailingBackAction(2, 3, 'triggered')).toBeNull();
  });

  it('turns triggered into report and error into initial when the user leaves step 4', () => {
    expect(afterLeavingLastStep(withMergeId(triggered(), MERGE))).toMatchObject({ status: 'report', mergeId: MERGE });
    expect(afterLeavingLastStep(withSendFailure(triggered(), { code: 'x', message: 'x' })).status).toBe('initial');
    expect(afterLeavingLastStep(polled(report({ events: 3 }))).status).toBe('report');
  });

  it('shows the cancel/report control for report, cancelled and triggered only', () => {
    expect(['initial', 'triggered', 'report', 'completed', 'cancelled', 'error'].filter((status) => showsMailingControl(status as MailingState['status'])))
      .toEqual(['triggered', 'report', 'cancelled']);
  });

  it('resumes a mailing found after a reload', () => {
    expect(resumed(MERGE)).toMatchObject({ status: 'triggered', mergeId: MERGE });
  });
});
