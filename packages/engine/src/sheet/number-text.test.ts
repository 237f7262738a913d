import { SSF } from '@e965/xlsx';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateToSerial, serialToDate } from './cells/formats.ts';
import { formatGeneral } from './cells/general-format.ts';

describe('formatGeneral', () => {
  it("shows numbers as Excel's General does: up to 11 characters, then scientific", () => {
    expect(formatGeneral(42)).toBe('42');
    expect(formatGeneral(-0)).toBe('0');
    expect(formatGeneral(1234.5)).toBe('1234.5');
    expect(formatGeneral(0.1 + 0.2)).toBe('0.3');
    expect(formatGeneral(1 / 3)).toBe('0.333333333');
    expect(formatGeneral(-1 / 3)).toBe('-0.333333333');
    expect(formatGeneral(99_999_999_999)).toBe('99999999999');
    expect(formatGeneral(123_456_789_012)).toBe('1.23457E+11');
    expect(formatGeneral(0.000012)).toBe('0.000012');
    expect(formatGeneral(1.5e-10)).toBe('1.5E-10');
    expect(formatGeneral(1e21)).toBe('1E+21');
  });

  it('agrees with SheetJS SSF (Excel rules) on any double', () => {
    const doubles = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.double({ min: -1e12, max: 1e12, noNaN: true }),
      fc.integer({ min: -1e12, max: 1e12 }).map((value) => value / 100),
    );
    fc.assert(
      fc.property(doubles, (value) => {
        expect(formatGeneral(value)).toBe(SSF.format('General', value));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('Excel serial dates', () => {
  it('maps serials to UTC wall-clock dates in both date systems', () => {
    expect(serialToDate(45366.75, false)).toEqual(new Date('2024-03-15T18:00:00Z'));
    expect(serialToDate(43904.75, true)).toEqual(new Date('2024-03-15T18:00:00Z'));
    expect(serialToDate(1, false)).toEqual(new Date('1900-01-01T00:00:00Z'));
    expect(serialToDate(61, false)).toEqual(new Date('1900-03-01T00:00:00Z'));
    expect(serialToDate(0, true)).toEqual(new Date('1904-01-01T00:00:00Z'));
  });

  it('round-trips through dateToSerial', () => {
    fc.assert(
      fc.property(fc.integer({ min: 61 * 86_400, max: 2_958_465 * 86_400 }), fc.boolean(), (seconds, date1904) => {
        const serial = seconds / 86_400;
        expect(dateToSerial(serialToDate(serial, date1904), date1904)).toBeCloseTo(serial, 6);
      }),
      { numRuns: 500 },
    );
  });
});
