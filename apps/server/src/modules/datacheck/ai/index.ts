/**
 * The data check's optional AI review (docs/data-check.md#ai-review; issue #15): what rules cannot
 * see, asked of an OpenAI-compatible API the operator configures (LLM_BASE_URL, LLM_MODEL,
 * LLM_API_KEY): a value that does not belong in its column (a name in an address column, a city in a
 * name column) and spellings of one thing that differ across rows. Off when LLM_BASE_URL is unset.
 *
 *   for await (const issue of aiReview(ctx, { columns, rows, signal })) ...
 *
 * - Only distinct values of the columns that hold people, addresses, places or companies are sent,
 *   never whole rows, never columns that look private (select.ts); in batches of LLM_BATCH_CELLS, at
 *   most LLM_MAX_CELLS_PER_CHECK values per check (the cost cap). Values past the cap are not reviewed;
 *   an info line in the log says how many (no issue: issues belong to rows).
 * - Each answer maps back to every row holding the value; issues come batch by batch, each batch's in
 *   row order (the caller merges them into its own order). Kind 'ai', codes `check/ai-*`.
 * - A provider error, a timeout (LLM_TIMEOUT_MS) or an unusable answer never fails the check: the
 *   first two end the AI pass with a warning in the log (status and error class only: never the key,
 *   the provider's message or a cell value), an unusable answer drops that batch. The signal ends the
 *   pass at once, the request in flight included.
 */
import type { DataIssue } from '@sheaf/shared';
import { formatErrorMessage, type ErrorCode } from '@sheaf/shared';
import type { AppContext } from '../../../context.ts';
import { askBatch, failureOf, providerFor, readAnswer, type Findings, type LooksLike, type Provider } from './ask.ts';
import { chooseColumns, planBatches, SAMPLE_ROWS, ValueCollector, type Cell } from './select.ts';

export interface AiReviewRow {
  /** The row as the spreadsheet numbers it. */
  rowNumber: number;
  /** Cell text by heading, as Excel shows it. */
  cells: Record<string, string>;
}

/** How an AI pass went (for the caller's own record; the log says it too). */
export interface AiReviewSummary {
  outcome: 'off' | 'nothing-to-review' | 'done' | 'provider-failed' | 'timeout' | 'aborted';
  /** The columns reviewed. */
  columns: string[];
  /** Distinct values sent, all requests together (never more than LLM_MAX_CELLS_PER_CHECK). */
  cellsSent: number;
  requests: number;
  /** The cap left values out. */
  capped: boolean;
  /** Cells (row by row) of the reviewed columns whose value was not sent because of the cap. */
  leftOut: number;
  issues: number;
  /** Batches whose answer was not the JSON asked for, dropped. */
  unusableAnswers: number;
}

export interface AiReviewInput {
  /** The sheet's headings. */
  columns: string[];
  rows: AsyncIterable<AiReviewRow> | AiReviewRow[];
  signal: AbortSignal;
  /** Told once how the pass went, when it ends (also when the caller stops iterating early). */
  onSummary?: (summary: AiReviewSummary) => void;
}

/** Whether the operator configured the AI review (LLM_BASE_URL and LLM_MODEL). */
export function aiReviewConfigured(ctx: Pick<AppContext, 'config'>): boolean {
  return Boolean(ctx.config.LLM_BASE_URL && ctx.config.LLM_MODEL);
}

const MISPLACED_CODE: Record<LooksLike, ErrorCode> = {
  person: 'check/ai-looks-like-person',
  address: 'check/ai-looks-like-address',
  place: 'check/ai-looks-like-place',
  company: 'check/ai-looks-like-company',
  other: 'check/ai-out-of-place',
};

function issue(row: number, cell: Cell, code: ErrorCode, expected = ''): DataIssue {
  const params: Record<string, string> = expected ? { expected } : {};
  return {
    row_number: row,
    column_name: cell.column.name,
    description: formatErrorMessage(code, params),
    actual_value: cell.value,
    expected_value: expected,
    kind: 'ai',
    code,
    params,
  };
}

/**
 * The issues of one batch's findings, in row order: a misplaced value on every row holding it; in a
 * group of spellings, every row holding one other than the spelling most rows use (on a tie, the one
 * met first), which is the expected value.
 */
export function issuesOf(findings: Findings): DataIssue[] {
  const issues: DataIssue[] = [];
  for (const { cell, looksLike } of findings.misplaced) {
    for (const row of cell.rows) issues.push(issue(row, cell, MISPLACED_CODE[looksLike]));
  }
  for (const group of findings.variants) {
    const majority = group.reduce((best, cell) => (cell.rows.length > best.rows.length || (cell.rows.length === best.rows.length && cell.rows[0] < best.rows[0]) ? cell : best));
    for (const cell of group) {
      if (cell === majority) continue;
      for (const row of cell.rows) issues.push(issue(row, cell, 'check/ai-spelling', majority.value));
    }
  }
  return issues.sort((a, b) => a.row_number - b.row_number || a.column_name.localeCompare(b.column_name) || a.code.localeCompare(b.code));
}

/** The AI review of a sheet's rows: issues of kind 'ai'. Yields nothing when the review is off. */
export async function* aiReview(ctx: Pick<AppContext, 'config' | 'log'>, input: AiReviewInput): AsyncGenerator<DataIssue> {
  const { config, log } = ctx;
  const summary: AiReviewSummary = { outcome: 'off', columns: [], cellsSent: 0, requests: 0, capped: false, leftOut: 0, issues: 0, unusableAnswers: 0 };
  try {
    if (!aiReviewConfigured(ctx)) return;
    // Until it ends otherwise, the pass was stopped (the signal, or the caller no longer iterating).
    summary.outcome = 'aborted';
    if (input.signal.aborted) return;
    const cap = config.LLM_MAX_CELLS_PER_CHECK;

    // The first rows decide the columns; then every row adds its chosen columns' values.
    const sample: AiReviewRow[] = [];
    let collector: ValueCollector | null = null;
    const startCollecting = () => {
      const started = new ValueCollector(chooseColumns(input.columns, sample.map((entry) => entry.cells)), cap);
      for (const entry of sample) started.add(entry.rowNumber, entry.cells);
      sample.length = 0;
      return started;
    };
    for await (const row of input.rows) {
      if (input.signal.aborted) return;
      if (collector) collector.add(row.rowNumber, row.cells);
      else if (sample.push(row) === SAMPLE_ROWS) collector = startCollecting();
    }
    collector ??= startCollecting();
    summary.columns = collector.columns.map((entry) => entry.column.name);
    const plan = planBatches(collector.columns, cap, config.LLM_BATCH_CELLS);
    summary.capped = plan.capped;
    summary.leftOut = plan.leftOut;
    if (plan.batches.length === 0) {
      summary.outcome = 'nothing-to-review';
      log.debug({ columns: summary.columns.length }, 'data check AI review: nothing to ask about');
      return;
    }
    if (plan.capped) {
      log.info({ cap, cells: plan.cells, leftOut: plan.leftOut }, 'data check AI review: the cost cap (LLM_MAX_CELLS_PER_CHECK) is reached; cells whose values are past it are not reviewed');
    }

    let provider: Provider;
    try {
      provider = await providerFor(config);
    } catch (error) {
      summary.outcome = 'provider-failed';
      log.warn({ errorType: error instanceof Error ? error.constructor.name : typeof error }, 'data check AI review: the AI client could not be set up; the AI pass ended, the check goes on');
      return;
    }
    const model = config.LLM_MODEL as string;
    for (const [index, batch] of plan.batches.entries()) {
      if (input.signal.aborted) return;
      summary.requests += 1;
      summary.cellsSent += batch.length;
      let reply: Awaited<ReturnType<typeof askBatch>>;
      try {
        reply = await askBatch(provider.client, model, batch, input.signal);
      } catch (error) {
        const failure = failureOf(error, provider, input.signal);
        summary.outcome = failure.outcome;
        if (failure.outcome === 'aborted') log.debug('data check AI review: stopped with the check');
        else if (failure.outcome === 'timeout') log.warn({ batch: index + 1, timeoutMs: config.LLM_TIMEOUT_MS }, 'data check AI review: the AI provider did not answer in time (LLM_TIMEOUT_MS); the AI pass ended, the check goes on');
        else log.warn({ batch: index + 1, ...failure.facts }, 'data check AI review: the AI provider failed; the AI pass ended, the check goes on');
        return;
      }
      const findings = reply.content === null || reply.finishReason === 'length' ? null : readAnswer(reply.content, batch);
      if (!findings) {
        summary.unusableAnswers += 1;
        log.warn({ batch: index + 1, finishReason: reply.finishReason }, 'data check AI review: an answer was not the JSON asked for; its batch is dropped');
        continue;
      }
      if (findings.dropped > 0) log.debug({ batch: index + 1, dropped: findings.dropped }, 'data check AI review: malformed entries of an answer dropped');
      for (const found of issuesOf(findings)) {
        summary.issues += 1;
        yield found;
      }
    }
    summary.outcome = 'done';
  } finally {
    input.onSummary?.(summary);
  }
}
