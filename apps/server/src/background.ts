/**
 * Work a request starts and does not wait for (a template's thumbnail, say). The process's close waits
 * for what is still running, so no task writes into a data folder or a database that is going away.
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();

  /** Starts `task`; its failure goes to `onError` (the task's own business), never unhandled. */
  run(task: () => Promise<void>, onError: (error: unknown) => void): void {
    const promise = task()
      .catch(onError)
      .finally(() => this.running.delete(promise));
    this.running.add(promise);
  }

  /** Resolves once every task started so far, and any they start, has ended. */
  async drain(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }
}
