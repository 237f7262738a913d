/** Why a running job's signal was aborted: cancelled (by a user, or elsewhere) or the runner stopping. */

/** The abort reason of a job the user (or another process) cancelled. */
export class JobCancelled extends Error {
  constructor() {
    super('job cancelled');
    this.name = 'JobCancelled';
  }
}

/** The abort reason when the runner stops: the job is handed back, not failed, and runs again later. */
export class JobShutdown extends Error {
  constructor() {
    super('job runner stopping');
    this.name = 'JobShutdown';
  }
}

export function isShutdown(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof JobShutdown;
}
