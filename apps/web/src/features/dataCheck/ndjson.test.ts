// @vitest-environment node
/** The NDJSON reader: lines cut only at '\n' whatever the chunks, UTF-8 split mid-character, one hand-over per chunk. */
import { describe, expect, it } from 'vitest';
import type { DataIssue } from '@sheaf/shared';
import { LineSplitter, parseLine, readIssues, StreamedError } from './ndjson.ts';

const issue = (row: number, extra: Partial<DataIssue> = {}): DataIssue => ({
  row_number: row, column_name: 'Email', description: 'This is not a valid email address.', actual_value: `x${row}@`, expected_value: '',
  kind: 'email', code: 'check/email-invalid', params: {}, ...extra,
});
const encoder = new TextEncoder();

/** A byte stream that hands over exactly the given chunks. */
function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++]);
      else controller.close();
    },
  });
}

/** Cuts bytes into chunks of `size` (so lines and characters break anywhere). */
function cut(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

describe('LineSplitter', () => {
  it('keeps a line whole across pieces and waits for its end', () => {
    const lines = new LineSplitter();
    expect(lines.push('{"a":')).toEqual([]);
    expect(lines.push('1}\n{"b"')).toEqual(['{"a":1}']);
    expect(lines.push(':2}\r\n\n  \n{"c":3}')).toEqual(['{"b":2}']);
    expect(lines.end()).toEqual(['{"c":3}']);
    expect(lines.end()).toEqual([]);
  });

  it('cuts many lines out of one piece', () => {
    expect(new LineSplitter().push('1\n2\n3\n')).toEqual(['1', '2', '3']);
  });
});

describe('parseLine', () => {
  it('reads an issue of the contract (params default to {})', () => {
    const { params: _params, ...withoutParams } = issue(3);
    expect(parseLine(JSON.stringify(withoutParams))).toEqual({ kind: 'issue', issue: issue(3) });
  });

  it('skips what is not JSON or not an issue', () => {
    expect(parseLine('not json')).toEqual({ kind: 'skipped' });
    expect(parseLine(JSON.stringify({ ...issue(3), kind: 'unknown-kind' }))).toEqual({ kind: 'skipped' });
    expect(parseLine('[1,2]')).toEqual({ kind: 'skipped' });
  });

  it('throws the server\'s error written into the stream', () => {
    expect(() => parseLine(JSON.stringify({ code: 'check/failed', message: 'An error occurred during validation. Please try again.' }))).toThrow(StreamedError);
    expect(() => parseLine(JSON.stringify({ error: { code: 'check/failed', message: 'x' } }))).toThrow(/x/);
  });
});

describe('readIssues', () => {
  it('reads every issue whatever the chunk size, accents and CJK split mid-character', async () => {
    const issues = Array.from({ length: 50 }, (_, index) => issue(index + 2, { actual_value: `Müller 张伟 ${index}`, column_name: 'Näme' }));
    const bytes = encoder.encode(issues.map((item) => JSON.stringify(item)).join('\n'));
    for (const size of [1, 2, 3, 7, 64, 1000, bytes.length]) {
      const seen: DataIssue[] = [];
      const result = await readIssues(streamOf(cut(bytes, size)), (batch) => seen.push(...batch));
      expect(seen, `chunks of ${size}`).toEqual(issues);
      expect(result.skipped).toBe(0);
    }
  });

  it('hands the issues of one chunk over together, not one call per line', async () => {
    const text = [issue(2), issue(3), issue(4)].map((item) => `${JSON.stringify(item)}\n`).join('');
    const calls: number[] = [];
    await readIssues(streamOf([encoder.encode(text + JSON.stringify(issue(5)).slice(0, 10)), encoder.encode(`${JSON.stringify(issue(5)).slice(10)}\n`)]), (batch) => calls.push(batch.length));
    expect(calls).toEqual([3, 1]);
  });

  it('counts the lines it skips', async () => {
    const text = `${JSON.stringify(issue(2))}\nnonsense\n{"row_number":"x"}\n${JSON.stringify(issue(3))}\n`;
    const seen: DataIssue[] = [];
    expect(await readIssues(streamOf([encoder.encode(text)]), (batch) => seen.push(...batch))).toEqual({ skipped: 2 });
    expect(seen.map((item) => item.row_number)).toEqual([2, 3]);
  });

  it('ends with an error line, the issues before it handed over first', async () => {
    const text = `${JSON.stringify(issue(2))}\n${JSON.stringify({ code: 'check/failed', message: 'failed' })}\n${JSON.stringify(issue(3))}\n`;
    const seen: DataIssue[] = [];
    await expect(readIssues(streamOf([encoder.encode(text)]), (batch) => seen.push(...batch))).rejects.toBeInstanceOf(StreamedError);
    expect(seen.map((item) => item.row_number)).toEqual([2]);
  });

  it('stops and cancels the stream when aborted', async () => {
    let cancelled = false;
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(stream) {
        stream.enqueue(encoder.encode(`${JSON.stringify(issue(2))}\n`));
      },
      cancel() {
        cancelled = true;
      },
    });
    const seen: DataIssue[] = [];
    const reading = readIssues(body, (batch) => {
      seen.push(...batch);
      controller.abort();
    }, controller.signal);
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toHaveLength(1);
    expect(cancelled).toBe(true);
  });
});
