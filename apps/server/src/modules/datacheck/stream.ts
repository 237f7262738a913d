/**
 * The answer of the data check as it is found (docs/data-check.md#the-call): NDJSON, one issue per
 * line, rows in order. The rows are checked in slices between which the event loop runs, so what is
 * found goes out while the rest is checked: the first lines at once, then a chunk whenever
 * FLUSH_BYTES are waiting or FLUSH_MS have passed. The consumer pulls (Readable.from): a client that
 * reads slowly holds the check, so nothing piles up in memory, and a closed connection (the signal)
 * stops it within one slice.
 *
 * The optional AI review (./ai) runs beside the rules over the same rows. Its issues are placed in
 * row order among the rule issues when they arrive before the rules reach their row; those that
 * arrive later (most: the review reads every row before it asks) follow at once, each batch in row
 * order. Ordering them all would mean holding every rule issue until the AI has answered.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DataIssue } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { aiReview, aiReviewConfigured, type AiReviewRow } from './ai/index.ts';
import { ndjsonLine, type PreparedDataCheck } from './service.ts';

/** Work done between two turns of the event loop, at most (ms). */
const SLICE_MS = 8;
/** A chunk goes out when this much is waiting... */
const FLUSH_BYTES = 16 * 1024;
/** ...or this long after the last one (ms). */
const FLUSH_MS = 40;

export interface CheckStreamOptions {
  signal: AbortSignal;
}

/** Issues of the optional AI review, collected as they come, to be merged into the rule issues' order. */
class AiIssues {
  private readonly waiting: DataIssue[] = [];
  private readonly seen = new Set<string>();
  private done = false;
  private wake: (() => void) | null = null;
  failed: unknown = null;

  constructor(source: AsyncIterable<DataIssue>) {
    void (async () => {
      try {
        for await (const issue of source) {
          const key = `${issue.row_number}\u0000${issue.column_name}\u0000${issue.code}`;
          if (this.seen.has(key)) continue;
          this.seen.add(key);
          this.waiting.push(issue);
          this.wake?.();
        }
      } catch (error) {
        this.failed = error; // the review never fails the check
      } finally {
        this.done = true;
        this.wake?.();
      }
    })();
  }

  /** Waiting issues of rows up to `rowNumber` (all with Infinity), in row order. */
  take(rowNumber: number): DataIssue[] {
    if (this.waiting.length === 0) return [];
    this.waiting.sort((a, b) => a.row_number - b.row_number);
    let count = 0;
    while (count < this.waiting.length && this.waiting[count]!.row_number <= rowNumber) count++;
    return this.waiting.splice(0, count);
  }

  /** Resolves when an issue arrived or the review ended; false once it has ended and nothing waits. */
  async more(signal: AbortSignal): Promise<boolean> {
    if (this.waiting.length > 0) return true;
    if (this.done) return false;
    const stop = new AbortController();
    await new Promise<void>((resolve) => {
      this.wake = resolve;
      signal.addEventListener('abort', () => resolve(), { once: true, signal: stop.signal });
    });
    stop.abort(); // the listener goes
    this.wake = null;
    return this.waiting.length > 0 || !this.done;
  }
}

/** The rows as the AI review reads them (cell text by heading; a read of their own), yielding to the event loop now and then. */
async function* reviewRows(prepared: PreparedDataCheck, signal: AbortSignal): AsyncGenerator<AiReviewRow> {
  const { headers } = prepared;
  let sliceStart = performance.now();
  for await (const row of prepared.rows()) {
    if (signal.aborted) return;
    const cells: Record<string, string> = {};
    headers.forEach((heading, column) => {
      cells[heading] = row.text(column);
    });
    yield { rowNumber: row.rowNumber, cells };
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}

/** The NDJSON text of the check, in chunks (strings). */
export async function* checkLines(ctx: AppContext, prepared: PreparedDataCheck, { signal }: CheckStreamOptions): AsyncGenerator<string> {
  const { check, headers } = prepared;
  const ai = aiReviewConfigured(ctx)
    ? new AiIssues(aiReview(ctx, { columns: [...headers], rows: reviewRows(prepared, signal), signal }))
    : null;
  let pending = check.headerIssues.map(ndjsonLine).join('');
  let sent = false;
  let lastFlush = performance.now();
  let sliceStart = lastFlush;
  let i = 0;
  // Leaving the loop (a closed connection) closes the rows' stream too.
  for await (const { rowNumber, issues } of check.rows(prepared.rows())) {
    if (signal.aborted) return;
    if (ai) for (const issue of ai.take(rowNumber)) pending += ndjsonLine(issue);
    for (const issue of issues) pending += ndjsonLine(issue);
    if ((i++ & 63) !== 63 && pending === '') continue;
    const now = performance.now();
    // The first lines go out as soon as they are found; then in chunks.
    if (pending !== '' && (!sent || pending.length >= FLUSH_BYTES || now - lastFlush >= FLUSH_MS)) {
      yield pending;
      pending = '';
      sent = true;
      lastFlush = performance.now();
    }
    if (now - sliceStart >= SLICE_MS) {
      await nextTurn(); // the socket writes, the AI review and a disconnect get their turn
      sliceStart = performance.now();
    }
  }
  if (ai) {
    for (const issue of ai.take(Infinity)) pending += ndjsonLine(issue);
    if (pending !== '') yield pending;
    pending = '';
    while (await ai.more(signal)) {
      if (signal.aborted) return;
      const lines = ai.take(Infinity).map(ndjsonLine).join('');
      if (lines !== '') yield lines;
    }
    if (ai.failed) ctx.log.warn({ errorType: ai.failed instanceof Error ? ai.failed.constructor.name : typeof ai.failed }, 'data check: the AI review failed; the rules\' issues were sent');
  }
  if (pending !== '') yield pending;
}
