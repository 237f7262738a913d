/* eslint-disable no-restricted-imports -- test support only (never imported by the engine): reads generated fixtures. */
/** Helpers for the sheet tests: fixture bytes and the catalogue code a call fails with. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isSheafError } from '@sheaf/shared';
import { FIXTURES_DIR } from '../../../../scripts/make-fixtures.ts';

export function fixtureBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(FIXTURES_DIR, name)));
}

/** The SheafError code `work` throws; fails the test on any other exception, undefined when it succeeds. */
export function errorCode(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    if (isSheafError(error)) return error.code;
    throw error;
  }
  return undefined;
}
