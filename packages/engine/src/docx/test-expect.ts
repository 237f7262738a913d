/** Assertions shared by the docx tests. */
import { expect } from 'vitest';
import { SheafError } from '@sheaf/shared';

/** Runs `action` and checks it fails with catalogue `code` (and, if given, these params). */
export function expectSheafError(action: () => unknown, code: string, params?: Record<string, unknown>): void {
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected SheafError ${code}`).toBeInstanceOf(SheafError);
  expect((caught as SheafError).code).toBe(code);
  if (params) expect((caught as SheafError).params).toMatchObject(params);
}
