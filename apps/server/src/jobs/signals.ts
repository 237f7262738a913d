/** Why a running job's signal was aborted: cancelled (by a user, or elsewhere), the runner stopping, or its lease lost. */

/** The abort reason of a job the user (or another process) cancelled. */
export class JobCancelled extends Error {
  constructor() {
    super('job cancelled');
    this.name = 'JobCancelled';
  }
}

/** The abort reason when the runner stops: the job is handed back, not failed, and runs again later. */
export class JobShutdown extends Error {
  constructor(message = 'job runner stopping') {
    super(message);
    this.name = 'JobShutdown';
  }
}

/**
 * The abort reason when the run's lease renewals failed until its lease was about to run out (the
 * database out of reach; jobs/lease-watch.ts): another process may claim the job then, so this run stops as at a shutdown (handlers keep
 * what lets the next run resume); the row is handed back if the database answers, else left to its
 * expired lease (due again either way).
 */
export class JobLeaseLost extends JobShutdown {
  constructor() {
    super('job lease lost: renewals failed until the lease ran out');
    this.name = 'JobLeaseLost';
  }
}

export function isShutdown(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof JobShutdown;
}
