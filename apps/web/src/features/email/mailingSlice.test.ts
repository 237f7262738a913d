/** The mailing state as the wizard slice carries it: Send, the merge id, failures, Back and reload. */
import { describe, expect, it } from 'vitest';
import type { MailingReport, Merge, TemplateDetail } from '@sheaf/shared';
import { DEFAULT_EMAIL_SETTINGS } from '@sheaf/shared';
import reducer, {
  mailingPollFailed, mailingReportReceived, mailingReset, mailingResumed, mailingTriggered, mergeFailed, mergeResumed, mergeStarted, mergeUpdated,
  stepChanged, templateLoaded, type WizardState,
} from '../wizard/wizardSlice.ts';

const TEMPLATE = 'T'.repeat(20);
const MERGE = 'M'.repeat(20);
const template = { id: TEMPLATE, email: DEFAULT_EMAIL_SETTINGS, excel: null, isEncrypted: false, output: {} } as unknown as TemplateDetail;
const merge = (extra: Partial<Merge> = {}): Merge => ({
  mergeId: MERGE, templateId: TEMPLATE, status: 'generating', total: 20, done: 5, isCombinedOutput: false, fileName: null, fileSize: null, downloadUrl: null,
  filesDeleted: false, madeViaApi: false, mailingStatus: 'queued', issues: [], error: null, createdAt: '', finishedAt: null, ...extra,
});
const report = (events: number, extra: Partial<MailingReport> = {}): MailingReport => ({
  events: Array.from({ length: events }, (_, index) => ({
    messageId: `m${index}`, mergeId: MERGE, templateId: TEMPLATE, rowNumber: index + 2, recipient: `r${index}@example.com`, subject: 's', status: 'accepted' as const,
    date: '2026-11-25T10:00:00.000Z', detail: null,
  })),
  eventCounts: { total: 20, queued: 20 - events, accepted: events, delivery: 0, opened: 0, clicked: 0, softBounce: 0, hardBounce: 0, failed: 0, cancelled: 0 },
  service: 'smtp', isCancelled: false, mailingStatus: 'sending', error: null, ...extra,
});
const run = (...actions: Parameters<typeof reducer>[1][]): WizardState => actions.reduce(reducer, reducer(undefined, { type: 'init' }));
const onStep4 = [templateLoaded(template), stepChanged({ step: 3, resetMerge: false })];
const sent = [...onStep4, mailingTriggered(), mergeStarted({ mergeId: MERGE, expectedTotal: 20 })];

describe('mailing in the wizard state', () => {
  it('starts initial; Send makes it triggered and keeps the merge id of the request', () => {
    expect(run(...onStep4).mailing.status).toBe('initial');
    expect(run(...sent).mailing).toMatchObject({ status: 'triggered', mergeId: MERGE });
    // A plain merge (no email) leaves the mailing alone.
    expect(run(...onStep4, mergeStarted({ mergeId: MERGE, expectedTotal: 20 })).mailing.status).toBe('initial');
  });

  it('takes reports of its own merge only, and ends completed', () => {
    expect(run(...sent, mailingReportReceived({ mergeId: 'X'.repeat(20), report: report(5) })).mailing.status).toBe('triggered');
    expect(run(...sent, mailingReportReceived({ mergeId: MERGE, report: report(5) })).mailing.status).toBe('report');
    expect(run(...sent, mailingReportReceived({ mergeId: MERGE, report: report(20, { mailingStatus: 'completed' }) })).mailing.status).toBe('completed');
  });

  it('turns a failed send into error, marked offline when the network failed', () => {
    const offline = run(...sent, mergeFailed({ code: 'generic/network', message: 'offline', offline: true }));
    expect(offline.mailing).toMatchObject({ status: 'error', offline: true });
    expect(run(...sent, mergeUpdated(merge({ status: 'error', error: { code: 'merge/failed', message: 'x' } }))).mailing.status).toBe('error');
    expect(run(...sent, mailingPollFailed({ mergeId: MERGE, network: false, error: { code: 'email/sender-gone', message: 'x' } })).mailing.error?.code).toBe('email/sender-gone');
  });

  it('turns triggered into report and error into initial when the user moves back to step 3', () => {
    expect(run(...sent, stepChanged({ step: 2, resetMerge: true })).mailing).toMatchObject({ status: 'report', mergeId: MERGE });
    const failed = run(...sent, mergeFailed({ code: 'x', message: 'x' }));
    expect(reducer(failed, stepChanged({ step: 2, resetMerge: true })).mailing.status).toBe('initial');
    // Moving within other steps changes nothing.
    const reporting = run(...sent, stepChanged({ step: 2, resetMerge: true }));
    expect(reducer(reporting, stepChanged({ step: 1, resetMerge: true })).mailing.status).toBe('report');
  });

  it('resets to initial after an error (Back) and picks up a mailing still running after a reload', () => {
    expect(run(...sent, mergeFailed({ code: 'x', message: 'x' }), mailingReset()).mailing.status).toBe('initial');
    const resumedWhileMaking = run(templateLoaded(template), mergeResumed(merge({ mailingStatus: 'sending' })));
    expect(resumedWhileMaking).toMatchObject({ activeStep: 3, mailing: { status: 'triggered', mergeId: MERGE } });
    const resumedWhileSending = run(templateLoaded(template), mailingResumed({ mergeId: MERGE, templateId: TEMPLATE }));
    expect(resumedWhileSending).toMatchObject({ activeStep: 3, mailing: { status: 'triggered', mergeId: MERGE } });
    expect(run(templateLoaded(template), mailingResumed({ mergeId: MERGE, templateId: 'O'.repeat(20) })).mailing.status).toBe('initial');
  });
});
