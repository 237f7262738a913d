import { describe, expect, it } from 'vitest';
import { formatFileSize, mergeProgress, mergeSavings } from './historyFormat.ts';

describe('history figures', () => {
  it('formats file sizes in the UI language', () => {
    expect(formatFileSize(512, 'en')).toBe('512 B');
    expect(formatFileSize(1536, 'en')).toBe('1.5 KB');
    expect(formatFileSize(1536, 'de')).toBe('1,5 KB');
    expect(formatFileSize(250 * 1024 * 1024, 'en')).toBe('250 MB');
  });

  it('shows progress of a running merge', () => {
    expect(mergeProgress({ done: 25, total: 200 })).toBe(13);
    expect(mergeProgress({ done: 0, total: 0 })).toBe(0);
  });

  it('estimates savings of completed merges only: 20 dollars an hour, one error per 40 placeholders', () => {
    // 1,200 documents x 3 placeholders x 30 s = 30 hours = 600 dollars; 3,600 / 40 = 90 errors.
    expect(mergeSavings({ status: 'completed', done: 1200 }, 3)).toEqual({ hours: 30, dollars: 600, errorsPrevented: 90 });
    expect(mergeSavings({ status: 'cancelled', done: 1200 }, 3)).toBeNull();
    expect(mergeSavings({ status: 'completed', done: 1200 }, 0)).toBeNull();
  });
});
