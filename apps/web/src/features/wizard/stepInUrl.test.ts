/** The wizard step in the address: ?step=1..4 names a step; anything else names none. */
import { describe, expect, it } from 'vitest';
import { stepFromSearch } from './useStepInUrl.ts';

describe('stepFromSearch', () => {
  it('reads ?step=1..4 as the 0-based steps', () => {
    expect([1, 2, 3, 4].map((step) => stepFromSearch(String(step)))).toEqual([0, 1, 2, 3]);
  });

  it('names no step for a missing, out-of-range or malformed value', () => {
    for (const value of [null, '', '0', '5', '12', '-1', '2.5', 'two', ' 2']) expect(stepFromSearch(value), String(value)).toBeNull();
  });
});
