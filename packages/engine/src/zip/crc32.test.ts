import { crc32 as zlibCrc32 } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32, crc32Combine } from './crc32.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('crc32', () => {
  it('gives the standard check values', () => {
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(bytes('123456789'))).toBe(0xcbf43926);
    expect(crc32(bytes('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
  });

  it('matches zlib for any data, and when continued chunk by chunk', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.nat({ max: 2000 }), (data, cut) => {
        const split = Math.min(cut, data.length);
        expect(crc32(data)).toBe(zlibCrc32(data));
        expect(crc32(data.subarray(split), crc32(data.subarray(0, split)))).toBe(zlibCrc32(data));
      }),
      { numRuns: 200 },
    );
  });

  it('reads a view at its own offset, not the start of its buffer', () => {
    const data = new Uint8Array(100).map((_, i) => i * 7);
    expect(crc32(data.subarray(13, 77))).toBe(zlibCrc32(data.subarray(13, 77)));
  });
});

describe('crc32Combine', () => {
  it('gives the CRC of the concatenation from the two parts', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.uint8Array({ maxLength: 3000 }), (a, b) => {
        const joined = new Uint8Array(a.length + b.length);
        joined.set(a);
        joined.set(b, a.length);
        expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(zlibCrc32(joined));
      }),
      { numRuns: 200 },
    );
  });

  it('handles lengths of 2 GiB and more (byte counts past 31 bits)', () => {
    const block = new Uint8Array(64 * 2 ** 20).fill(0x5a);
    const blocks = 33; // 2.06 GiB
    const prefix = bytes('%PDF-1.7 shared template prefix');
    let streamed = zlibCrc32(prefix); // ground truth: zlib over every byte
    for (let i = 0; i < blocks; i++) streamed = zlibCrc32(block, streamed);
    let blocksCrc = 0; // ours: combined, never reading past the first block
    const blockCrc = crc32(block);
    for (let i = 0; i < blocks; i++) blocksCrc = crc32Combine(blocksCrc, blockCrc, block.length);
    expect(crc32Combine(crc32(prefix), blocksCrc, blocks * block.length)).toBe(streamed);
  });
});
