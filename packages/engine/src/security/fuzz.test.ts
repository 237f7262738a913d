import { isSheafError } from '@sheaf/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENCRYPTED_PLAIN, USER_PASSWORD } from '../../../../scripts/fixtures/encrypted.ts';
import { decryptPdf, encryptPdf, inspectEncryption } from './index.ts';
import { fixtureBytes } from './test-support.ts';

const SAMPLES = ['encrypted-rc4-40.pdf', 'encrypted-aes-128-objstm.pdf', 'encrypted-aes-256-objstm.pdf', 'encrypted-aes-256.pdf'].map(fixtureBytes);

type Mutation =
  | { kind: 'flip'; at: number[]; value: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'duplicate'; at: number; length: number };

const position = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.array(position, { minLength: 1, maxLength: 12 }), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: position }),
  fc.record({ kind: fc.constant('delete' as const), at: position, length: fc.integer({ min: 1, max: 400 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: position, bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: position, length: fc.integer({ min: 1, max: 2000 }) }),
);

function mutate(source: Uint8Array, change: Mutation): Uint8Array {
  const index = (at: number) => Math.floor(at * source.length);
  const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
  switch (change.kind) {
    case 'flip': {
      const bytes = source.slice();
      for (const at of change.at) bytes[index(at)] ^= change.value || 1;
      return bytes;
    }
    case 'truncate':
      return source.slice(0, index(change.at));
    case 'delete':
      return concat(source.subarray(0, index(change.at)), source.subarray(index(change.at) + change.length));
    case 'insert':
      return concat(source.subarray(0, index(change.at)), change.bytes, source.subarray(index(change.at)));
    case 'duplicate': {
      const at = index(change.at);
      return concat(source.subarray(0, at + change.length), source.subarray(at));
    }
  }
}

/** Either a result or a catalogue error: never another exception. */
function settles(work: () => unknown): void {
  try {
    work();
  } catch (error) {
    expect(isSheafError(error), String(error)).toBe(true);
  }
}

describe('damaged files', () => {
  it('end in a result or a SheafError when inspected or decrypted', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: SAMPLES.length - 1 }), mutation, (sample, change) => {
        const bytes = mutate(SAMPLES[sample], change);
        settles(() => inspectEncryption(bytes));
        settles(() => decryptPdf(bytes, USER_PASSWORD));
      }),
      { numRuns: 120 },
    );
  });

  it('end in a result or a SheafError when encrypted', () => {
    const plain = fixtureBytes(ENCRYPTED_PLAIN);
    fc.assert(
      fc.property(mutation, (change) => {
        settles(() => encryptPdf(mutate(plain, change), { userPassword: USER_PASSWORD, ownerPassword: 'Owner123' }));
      }),
      { numRuns: 60 },
    );
  });
});
