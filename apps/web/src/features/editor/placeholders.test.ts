import { describe, expect, it } from 'vitest';
import type { Placeholder } from '@sheaf/shared';
import { PlaceholderSchema } from '@sheaf/shared';
import { createPlaceholder, filterByColumn, freeSpot, isMissingColumn, STACK_GAP_PT } from './placeholders.ts';

const page = { width: 600, height: 800 };
const at = (column: string, x: number, y: number, pageNumber = 1): Placeholder => ({ ...createPlaceholder(column, pageNumber, page, { x, y }), id: column });

describe('placeholders', () => {
  it('creates a valid 12 pt placeholder centred where asked, inside the page', () => {
    const made = createPlaceholder('First name', 2, page, { x: 0.5, y: 0.25 });
    expect(PlaceholderSchema.parse(made)).toEqual(made);
    expect(made.relativeFontSize * page.height).toBeCloseTo(12);
    expect(made.relativeX + made.relativeWidth / 2).toBeCloseTo(0.5);
    const corner = createPlaceholder('X', 1, page, { x: 1, y: 1 });
    expect(corner.relativeX + corner.relativeWidth).toBeLessThanOrEqual(1);
    expect(corner.relativeY + corner.relativeHeight).toBeLessThanOrEqual(1);
  });

  it('puts a new placeholder below one already at the spot, with room for its type badge', () => {
    const first = at('A', 0.5, 0.5);
    const spot = freeSpot([first], 1, page, 0.5, 0.5);
    const second = at('B', spot.x, spot.y);
    expect((second.relativeY - (first.relativeY + first.relativeHeight)) * page.height).toBeCloseTo(STACK_GAP_PT);
    // A third goes below the second, evenly spaced.
    const third = freeSpot([first, second], 1, page, 0.5, 0.5);
    expect(third.y - spot.y).toBeCloseTo(spot.y - 0.5);
    expect(freeSpot([first], 2, page, 0.5, 0.5)).toEqual({ x: 0.5, y: 0.5 });
  });

  it('goes up the page when there is no room below', () => {
    const low = at('A', 0.5, 0.95);
    const spot = freeSpot([low], 1, page, 0.5, 0.95);
    expect(spot.y).toBeLessThan(low.relativeY);
  });

  it('searches by column name, case-insensitively, in reading order', () => {
    const list = [at('Last name', 0.5, 0.8), at('First name', 0.5, 0.2), at('Amount', 0.5, 0.1, 2)];
    expect(filterByColumn(list, 'NAME').map((item) => item.column)).toEqual(['First name', 'Last name']);
    expect(filterByColumn(list, '  ').map((item) => item.column)).toEqual(['First name', 'Last name', 'Amount']);
    expect(filterByColumn(list, 'zip')).toEqual([]);
  });

  it('marks columns missing from the sheet only when there is a sheet', () => {
    expect(isMissingColumn('Zip', ['Name', 'City'])).toBe(true);
    expect(isMissingColumn('City', ['Name', 'City'])).toBe(false);
    expect(isMissingColumn('Zip', null)).toBe(false);
    // The merge fills from a heading that differs only in case or spaces, so the editor does not flag it.
    expect(isMissingColumn('city', ['Name', 'City'])).toBe(false);
    expect(isMissingColumn(' CITY ', ['Name', 'City'])).toBe(false);
  });
});
