import { zlibSync } from 'fflate';
import { PDFContext, PDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSheafError } from '@sheaf/shared';
import { nativeZlibPrimitives } from '../../node/nativeZlib.ts';
import { decodeBudget } from '../decode.ts';
import { decodeStrictly, flateStream, portableZlibPrimitives, useZlibPrimitives } from './strict-decode.ts';

const context = PDFContext.create();
const text = new TextEncoder().encode('BT /F1 12 Tf (Hello) Tj ET\n'.repeat(2000));
const flate = (data: Uint8Array) => context.stream(zlibSync(data), { Filter: 'FlateDecode' }) as PDFRawStream;

describe.each([
  ['fflate (portable)', portableZlibPrimitives],
  ['native zlib', nativeZlibPrimitives],
] as const)('decodeStrictly with %s', (_, primitives) => {
  beforeAll(() => useZlibPrimitives(primitives));
  afterAll(() => useZlibPrimitives(portableZlibPrimitives));

  it('inflates a FlateDecode stream and charges the budget', () => {
    const budget = decodeBudget(1000);
    const before = budget.left;
    expect(decodeStrictly(flate(text), budget)).toEqual(text);
    expect(before - budget.left).toBe(text.length);
  });

  it('round-trips what flateStream writes', () => {
    expect(decodeStrictly(flateStream(context, text, { Length1: text.length }), decodeBudget(1000))).toEqual(text);
  });

  it('refuses a stream that unpacks past the budget with the catalogue error, and a truncated one', () => {
    const budget = { left: 1000, total: 1000 };
    let caught: unknown;
    try {
      decodeStrictly(flate(text), budget);
    } catch (error) {
      caught = error;
    }
    expect(isSheafError(caught) && caught.code).toBe('template/too-large-when-unpacked');
    const whole = zlibSync(text);
    expect(() => decodeStrictly(context.stream(whole.subarray(0, whole.length / 2), { Filter: 'FlateDecode' }) as PDFRawStream, decodeBudget(1000))).toThrow();
  });
});
