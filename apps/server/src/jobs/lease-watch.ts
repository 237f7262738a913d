/**
 * The leases of the jobs running in one runner (the table runner and the BullMQ runner alike): renewed
 * every third of the lease while they run. A run whose renewals keep failing is aborted with JobLeaseLost
 * just before its lease, counted from when the last renewal that succeeded was sent, runs out: from then
 * on another process may claim the job, and two runs of one job must not overlap.
 */
import type { Db } from '../adapters/db/types.ts';
import type { JobLog } from './execute.ts';
import { renewRunningLeases } from './rows.ts';
import { JobLeaseLost } from './signals.ts';

/**
 * The abort comes this share of the lease before the lease's end: a timer fires late on a busy event
 * loop, and the handler needs a moment to stop, while a claim elsewhere may come the instant it ends.
 */
const STOP_BEFORE_LEASE_END = 0.1;

export interface LeasedRun {
  controller: AbortController;
  attempt: number;
}

export interface LeaseWatch {
  /** A run began on a claim whose query was sent at `claimSentAt` (Date.now()): its lease ends a lease later at the earliest. */
  claimed(id: string, claimSentAt: number): void;
  /** The run is over: its lease is no longer watched. */
  ended(id: string): void;
  start(): void;
  stop(): void;
}

export function watchLeases(db: Db, log: JobLog, leaseMs: number, running: ReadonlyMap<string, LeasedRun>, logContext: Record<string, unknown> = {}): LeaseWatch {
  /** The timer that aborts each watched run as its lease ends; a run without one has lost its lease. */
  const leaseEnds = new Map<string, NodeJS.Timeout>();
  let renewTimer: NodeJS.Timeout | undefined;

  function leaseEndsAt(id: string, from: number): void {
    clearTimeout(leaseEnds.get(id));
    const timer = setTimeout(() => leaseLost(id), Math.max(0, from + leaseMs * (1 - STOP_BEFORE_LEASE_END) - Date.now()));
    timer.unref();
    leaseEnds.set(id, timer);
  }

  function leaseLost(id: string): void {
    leaseEnds.delete(id);
    const run = running.get(id);
    if (!run || run.controller.signal.aborted) return;
    log.warn({ ...logContext, jobId: id, leaseMs }, 'job lease lost: renewals failed until the lease was about to run out; the run stops');
    run.controller.abort(new JobLeaseLost());
  }

  /** Extends the leases still held; a job whose row is no longer 'running' was cancelled elsewhere. */
  async function renew(): Promise<void> {
    // A run that lost its lease is not renewed again: another claim may hold the row by now.
    const held = new Map([...running].filter(([id]) => leaseEnds.has(id)));
    if (held.size === 0) return;
    // Sent before the database sets the new lease (now() + lease there), so a lease counted from here ends no later.
    const sentAt = Date.now();
    try {
      await renewRunningLeases(db, held, leaseMs);
    } catch (error) {
      log.error({ ...logContext, err: error }, 'job runner: renewing leases failed');
      return;
    }
    for (const id of held.keys()) if (leaseEnds.has(id)) leaseEndsAt(id, sentAt);
  }

  return {
    claimed: leaseEndsAt,
    ended(id) {
      clearTimeout(leaseEnds.get(id));
      leaseEnds.delete(id);
    },
    start() {
      renewTimer = setInterval(() => void renew(), Math.max(10, Math.floor(leaseMs / 3)));
      renewTimer.unref();
    },
    stop() {
      clearInterval(renewTimer);
      for (const timer of leaseEnds.values()) clearTimeout(timer);
      leaseEnds.clear();
    },
  };
}
