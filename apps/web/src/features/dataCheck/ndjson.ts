/**
 * Reading the data check's answer (docs/data-check.md#the-dialog): newline-delimited JSON, one issue
 * per line, sent as the server finds them. Chunks end anywhere (inside a line, inside a UTF-8
 * character), so bytes are decoded as a stream and lines are cut only at '\n'. Each line is checked
 * against the shared DataIssueSchema; a line the contract does not know is skipped (and counted), a
 * line carrying an error (the server failed after it began to answer) ends the reading with it.
 */
import { DataIssueSchema, type DataIssue } from '@sheaf/shared';

/** Cuts text that arrives in pieces into whole lines ('\n' or '\r\n'); blank lines are dropped. */
export class LineSplitter {
  private rest = '';

  /** The lines completed by this piece; the unfinished tail waits for the next one. */
  push(text: string): string[] {
    const joined = this.rest + text;
    const parts = joined.split('\n');
    this.rest = parts.pop() ?? '';
    return parts.map(trimCr).filter((line) => line.trim() !== '');
  }

  /** The last line when the stream ends without a final '\n'. */
  end(): string[] {
    const last = trimCr(this.rest);
    this.rest = '';
    return last.trim() === '' ? [] : [last];
  }
}

const trimCr = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);

/** A failure the server wrote into the stream after it had begun to answer. */
export class StreamedError extends Error {
  readonly code: string;
  readonly params: Record<string, string | number>;

  constructor(code: string, message: string, params: Record<string, string | number> = {}) {
    super(message);
    this.name = 'StreamedError';
    this.code = code;
    this.params = params;
  }
}

export type ParsedLine = { kind: 'issue'; issue: DataIssue } | { kind: 'skipped' };

/** One line of the answer: an issue, or skipped; throws StreamedError for an error line. */
export function parseLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'skipped' };
  }
  const parsed = DataIssueSchema.safeParse(value);
  if (parsed.success) return { kind: 'issue', issue: parsed.data };
  // The catalogue's error shape ({ code, message }) with no row: the check stopped on the server.
  const record = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const error = record.error && typeof record.error === 'object' ? (record.error as Record<string, unknown>) : record;
  if (typeof error.code === 'string' && !('row_number' in record)) {
    const params = error.params && typeof error.params === 'object' ? (error.params as Record<string, string | number>) : {};
    throw new StreamedError(error.code, typeof error.message === 'string' ? error.message : error.code, params);
  }
  return { kind: 'skipped' };
}

/**
 * Reads a byte stream of NDJSON to its end, handing over the issues of each chunk together (one call
 * per chunk, not per line). Resolves with the number of lines skipped. Aborting `signal` cancels the
 * stream and rejects with an AbortError.
 */
export async function readIssues(
  body: ReadableStream<Uint8Array>,
  onIssues: (issues: DataIssue[]) => void,
  signal?: AbortSignal,
): Promise<{ skipped: number }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const lines = new LineSplitter();
  let skipped = 0;
  const take = (batch: string[]) => {
    const issues: DataIssue[] = [];
    try {
      for (const line of batch) {
        const parsed = parseLine(line);
        if (parsed.kind === 'issue') issues.push(parsed.issue);
        else skipped++;
      }
    } finally {
      // The issues before an error line are shown with it.
      if (issues.length > 0) onIssues(issues);
    }
  };
  const abort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', abort, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) throw new DOMException('The check was cancelled', 'AbortError');
      const { done, value } = await reader.read();
      if (signal?.aborted) throw new DOMException('The check was cancelled', 'AbortError');
      if (done) break;
      take(lines.push(decoder.decode(value, { stream: true })));
    }
    take([...lines.push(decoder.decode()), ...lines.end()]);
    return { skipped };
  } catch (error) {
    abort();
    throw error;
  } finally {
    signal?.removeEventListener('abort', abort);
  }
}
