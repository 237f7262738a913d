/**
 * The mailingStatus state machine of docs/email.md#mailing-status-in-the-wizard, as pure functions the
 * wizard slice applies: initial -> triggered (Send clicked, merge request posted) -> report (events
 * arrived) -> completed (every message has its event and the server says so) or cancelled (isCancelled
 * came back 3 times in a row with the queued count unchanged); error from a failed send or a server
 * error of the poll. A network error of the poll only marks the state offline: the mailing goes on on
 * the server.
 */
import { CANCELLED_REPORTS_IN_A_ROW, type MailingReport } from '@sheaf/shared';

export type MailingStatus = 'initial' | 'triggered' | 'report' | 'completed' | 'cancelled' | 'error';

export interface MailingError {
  code: string;
  message: string;
  params?: Record<string, string | number>;
  /** The network failed (the view shows its offline title). */
  offline?: boolean;
}

export interface MailingState {
  status: MailingStatus;
  error: MailingError | null;
  /** The merge whose documents are mailed; kept apart from the wizard's mergeId, which Back clears. */
  mergeId: string | null;
  /** Reports in a row that said isCancelled with the same queued count. */
  cancelledInARow: number;
  /** Queued count of the previous report (a change restarts the cancel count). */
  lastQueued: number | null;
  /** The last poll failed on the network; the next answer clears it. */
  offline: boolean;
}

export const INITIAL_MAILING: MailingState = {
  status: 'initial',
  error: null,
  mergeId: null,
  cancelledInARow: 0,
  lastQueued: null,
  offline: false,
};

/** The poller runs in these states. */
export const isMailingActive = (status: MailingStatus): boolean => status === 'triggered' || status === 'report';

/** The cancel/report control replaces Go home in these states (docs/email.md#mailing-status-in-the-wizard). */
export const showsMailingControl = (status: MailingStatus): boolean => status === 'report' || status === 'cancelled' || status === 'triggered';

/** Every message has its event and the server's mailing has ended. */
export function isReportComplete(report: MailingReport): boolean {
  return report.mailingStatus === 'completed' && report.events.length === report.eventCounts.total;
}

export function triggered(): MailingState {
  return { ...INITIAL_MAILING, status: 'triggered' };
}

/** The merge request was accepted under this id (the wizard makes the id just before posting). */
export function withMergeId(state: MailingState, mergeId: string): MailingState {
  return state.status === 'triggered' ? { ...state, mergeId } : state;
}

/** A merge resumed after a reload is still mailing: poll its report again. */
export function resumed(mergeId: string): MailingState {
  return { ...INITIAL_MAILING, status: 'triggered', mergeId };
}

/** A poll answered. Late answers after the mailing ended change nothing. */
export function withReport(state: MailingState, report: MailingReport): MailingState {
  if (!isMailingActive(state.status)) return state;
  const queued = report.eventCounts.queued;
  const queuedChanged = state.lastQueued !== null && queued !== state.lastQueued;
  // Messages still leaving the queue mean the cancel has not settled yet: count again from zero.
  const cancelledInARow = !report.isCancelled || queuedChanged ? 0 : state.cancelledInARow + 1;
  // The report itself stays in the query cache (features/email/api.ts); the state keeps what the machine needs.
  const next: MailingState = { ...state, offline: false, lastQueued: queued, cancelledInARow };
  if (report.mailingStatus === 'error') {
    return { ...next, status: 'error', error: report.error ? { ...report.error } : { code: 'generic/something-wrong', message: 'Something went wrong - Please try again' } };
  }
  if (isReportComplete(report)) return { ...next, status: 'completed' };
  if (cancelledInARow >= CANCELLED_REPORTS_IN_A_ROW) return { ...next, status: 'cancelled' };
  if (report.events.length > 0) return { ...next, status: 'report' };
  return next;
}

/** A poll failed: offline keeps polling; any other error ends the mailing view with its message. */
export function withPollFailure(state: MailingState, failure: { network: true } | { network: false; error: MailingError }): MailingState {
  if (!isMailingActive(state.status)) return state;
  if (failure.network) return { ...state, offline: true };
  return { ...state, status: 'error', error: failure.error, offline: false };
}

/** Starting the merge failed (network: offline), or the merge itself failed while documents were made. */
export function withSendFailure(state: MailingState, error: MailingError): MailingState {
  if (!isMailingActive(state.status)) return state;
  return { ...state, status: 'error', error, offline: error.offline === true };
}

/**
 * Leaving step 4 (docs/email.md#mailing-status-in-the-wizard): triggered turns into report (the mailing
 * goes on and is shown again on return), error into initial. An ended mailing (completed, cancelled) is
 * left behind too: its report stays on the email report page, and step 4 offers a new merge on return.
 */
export function afterLeavingLastStep(state: MailingState): MailingState {
  switch (state.status) {
    case 'triggered': return { ...state, status: 'report' };
    case 'error':
    case 'completed':
    case 'cancelled': return INITIAL_MAILING;
    default: return state;
  }
}

/**
 * The bottom bar's Back while mailing: disabled while triggered, a reset to the options after an
 * error; null leaves the decision to the merge's own rules.
 */
export function mailingBackAction(step: number, lastStep: number, status: MailingStatus): 'disabled' | 'resetStatus' | null {
  if (step !== lastStep) return null;
  if (status === 'triggered') return 'disabled';
  if (status === 'error') return 'resetStatus';
  return null;
}
