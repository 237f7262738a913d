import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nativeCryptoPrimitives } from './nativeCrypto.ts';
import { pureJsPrimitives } from '../security/index.ts';

describe('native crypto primitives', () => {
  it('give the same bytes as the pure JS ones, so documents open the same either way', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 1, max: 64 }), (iv, key, blocks) => {
        const data = new Uint8Array(blocks * 16).map((_, i) => (i * 7 + key[0]!) & 0xff);
        for (const k of [key, key.subarray(0, 16)]) {
          expect(nativeCryptoPrimitives.aesCbcEncryptRaw(k, iv, data)).toEqual(pureJsPrimitives.aesCbcEncryptRaw(k, iv, data));
        }
        for (const name of ['sha256', 'sha384', 'sha512'] as const) {
          expect(nativeCryptoPrimitives[name](data)).toEqual(pureJsPrimitives[name](data));
        }
      }),
      { numRuns: 50 },
    );
  });
});
