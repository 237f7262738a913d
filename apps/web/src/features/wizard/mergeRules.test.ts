import { describe, expect, it } from 'vitest';
import { isValidId, type TemplateOutputSettings } from '@sheaf/shared';
import {
  buildMergeRequest, canCancel, creditsVerdict, newMergeId, noPlaceholderMatches, pollDelay, progressPercent, retryWhile, statusOfMerge,
} from './mergeRules.ts';
import { ALL_ROWS } from './rowSelection.ts';

const output: TemplateOutputSettings = {
  isCombinedOutput: false, isKeepFormOutput: true, isOnlyPlaceholdersOutput: false, isTryRepair: false,
  isCompressedOutput: true, fileNamePattern: ' {{Last}} ', passwordProtection: { readPassword: '', modifyPassword: '' },
};
const sheet = { firstRow: 2, lastRow: 51 };

describe('merge request', () => {
  it('makes 20-character alphanumeric merge ids that differ', () => {
    const ids = new Set(Array.from({ length: 50 }, () => newMergeId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(isValidId(id)).toBe(true);
  });

  it('sends the output flags, the trimmed file name and all rows; drops empty password protection', () => {
    const body = buildMergeRequest({ mergeId: 'A'.repeat(20), output, selection: ALL_ROWS, sheet });
    expect(body).toMatchObject({ isCombinedOutput: false, isKeepFormOutput: true, isCompressedOutput: true, fileNamePattern: '{{Last}}' });
    expect(body.passwordProtection).toBeNull();
    expect(body.rowsData).toEqual({ startRow: 2, endRow: 51 });
    expect(body.limitToCredits).toBeUndefined();
  });

  it('leaves out the file name for combined output and asks for a credit limit when told', () => {
    const body = buildMergeRequest({ mergeId: 'B'.repeat(20), output: { ...output, isCombinedOutput: true }, selection: ALL_ROWS, sheet, limitToCredits: true });
    expect(body.fileNamePattern).toBeUndefined();
    expect(body.limitToCredits).toBe(true);
  });
});

describe('generation progress', () => {
  it('polls every second and backs off while offline, up to 30 s', () => {
    expect(pollDelay(0)).toBe(1000);
    expect(pollDelay(1)).toBe(2000);
    expect(pollDelay(3)).toBe(8000);
    expect(pollDelay(10)).toBe(30000);
  });

  it('maps the server status to the status view and computes the percentage', () => {
    expect(statusOfMerge({ status: 'queued' })).toBe('checker');
    expect(statusOfMerge({ status: 'generating' })).toBe('checker');
    expect(statusOfMerge({ status: 'completed' })).toBe('completed');
    expect(statusOfMerge({ status: 'cancelled' })).toBe('cancelled');
    expect(statusOfMerge({ status: 'error' })).toBe('error');
    expect(progressPercent({ done: 1, total: 3 })).toBe(33);
    expect(progressPercent({ done: 0, total: 0 })).toBe(0);
  });

  it('offers cancel from 10 rows', () => {
    expect(canCancel(9)).toBe(false);
    expect(canCancel(10)).toBe(true);
  });
});

describe('cancel retries', () => {
  const notFound = Object.assign(new Error('not found'), { code: 'merge/not-found' });
  const isNotFound = (error: unknown) => (error as { code?: string }).code === 'merge/not-found';
  const instant = async () => {};

  it('retries while the merge is not found yet, then succeeds', async () => {
    let calls = 0;
    const result = await retryWhile(async () => { if (++calls < 3) throw notFound; return 'cancelled'; }, isNotFound, { sleep: instant });
    expect(result).toBe('cancelled');
    expect(calls).toBe(3);
  });

  it('gives up after 5 retries, 2 s apart', async () => {
    let calls = 0;
    const waits: number[] = [];
    await expect(retryWhile(async () => { calls++; throw notFound; }, isNotFound, { sleep: async (ms) => { waits.push(ms); } })).rejects.toBe(notFound);
    expect(calls).toBe(6);
    expect(waits).toEqual([2000, 2000, 2000, 2000, 2000]);
  });

  it('does not retry other errors', async () => {
    let calls = 0;
    const other = Object.assign(new Error('x'), { code: 'generic/something-wrong' });
    await expect(retryWhile(async () => { calls++; throw other; }, isNotFound, { sleep: instant })).rejects.toBe(other);
    expect(calls).toBe(1);
  });
});

describe('checks before generating', () => {
  it('offers the first N documents when credits fall short, refuses with none left', () => {
    expect(creditsVerdict({ unlimited: true, available: null }, 500)).toEqual({ kind: 'enough' });
    expect(creditsVerdict({ unlimited: false, available: 100 }, 100)).toEqual({ kind: 'enough' });
    expect(creditsVerdict({ unlimited: false, available: 40 }, 100)).toEqual({ kind: 'partial', available: 40 });
    expect(creditsVerdict({ unlimited: false, available: 0 }, 100)).toEqual({ kind: 'none' });
  });

  it('notices when no placeholder fills from a heading of the sheet', () => {
    expect(noPlaceholderMatches([{ column: 'Name' }, { column: 'City' }], ['First', 'Last'])).toBe(true);
    expect(noPlaceholderMatches([{ column: 'Name' }, { column: 'Last' }], ['First', 'Last'])).toBe(false);
    expect(noPlaceholderMatches([], ['First'])).toBe(false);
    // A heading differing only in case fills the placeholder in the merge, so it matches.
    expect(noPlaceholderMatches([{ column: 'first' }], ['First', 'Last'])).toBe(false);
  });
});
