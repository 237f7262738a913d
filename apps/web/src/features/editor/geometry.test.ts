import { describe, expect, it } from 'vitest';
import {
  clampBox, fitWidthZoom, fontSizeToRelative, moveBox, nudgeBox, pageAt, pageOffsets, pageSizeOf, parsePageInput,
  pointToRelative, relativeToFontSize, resizeBox, stepZoom, toPixels, toRelative, MIN_BOX_PX,
} from './geometry.ts';

const page = { width: 600, height: 800 };
const box = { relativeX: 0.1, relativeY: 0.2, relativeWidth: 0.5, relativeHeight: 0.1 };

describe('editor geometry', () => {
  it('converts between page fractions and pixels both ways', () => {
    expect(toPixels(box, page)).toEqual({ left: 60, top: 160, width: 300, height: 80 });
    const back = toRelative({ left: 60, top: 160, width: 300, height: 80 }, page);
    expect(back.relativeX).toBeCloseTo(0.1);
    expect(back.relativeY).toBeCloseTo(0.2);
    expect(back.relativeWidth).toBeCloseTo(0.5);
    expect(back.relativeHeight).toBeCloseTo(0.1);
  });

  it('keeps boxes on the page', () => {
    expect(clampBox({ relativeX: 0.9, relativeY: -0.2, relativeWidth: 0.5, relativeHeight: 0.1 })).toEqual({
      relativeX: 0.5, relativeY: 0, relativeWidth: 0.5, relativeHeight: 0.1,
    });
    expect(clampBox({ relativeX: 0.3, relativeY: 0.3, relativeWidth: 2, relativeHeight: 1.5 })).toEqual({
      relativeX: 0, relativeY: 0, relativeWidth: 1, relativeHeight: 1,
    });
  });

  it('moves by pixels and stops at the page edge', () => {
    const moved = moveBox(box, 30, -40, page);
    expect(moved.relativeX).toBeCloseTo(0.15);
    expect(moved.relativeY).toBeCloseTo(0.15);
    const far = moveBox(box, 10_000, 10_000, page);
    expect(far.relativeX).toBeCloseTo(0.5);
    expect(far.relativeY).toBeCloseTo(0.9);
  });

  it('nudges 1 pixel, 10 with Shift', () => {
    expect(toPixels(nudgeBox(box, 'ArrowRight', false, page), page).left).toBeCloseTo(61);
    expect(toPixels(nudgeBox(box, 'ArrowUp', true, page), page).top).toBeCloseTo(150);
    expect(toPixels(nudgeBox({ ...box, relativeX: 0 }, 'ArrowLeft', true, page), page).left).toBe(0);
  });

  it('resizes from a handle keeping the opposite edge and a minimum size', () => {
    const wider = toPixels(resizeBox(box, 'se', 50, 20, page), page);
    expect(wider).toMatchObject({ left: 60, top: 160 });
    expect(wider.width).toBeCloseTo(350);
    expect(wider.height).toBeCloseTo(100);
    const fromLeft = toPixels(resizeBox(box, 'w', -100, 0, page), page);
    expect(fromLeft.left).toBe(0); // stopped at the page edge
    expect(fromLeft.left + fromLeft.width).toBeCloseTo(360); // right edge unchanged
    const tiny = toPixels(resizeBox(box, 'n', 0, 500, page), page);
    expect(tiny.height).toBeCloseTo(MIN_BOX_PX);
    expect(tiny.top + tiny.height).toBeCloseTo(240);
  });

  it('converts font sizes in points to relativeFontSize and back', () => {
    expect(fontSizeToRelative(12, 1104.5)).toBeCloseTo(0.010865);
    expect(relativeToFontSize(0.0109, 1104.5)).toBe(12);
    expect(relativeToFontSize(fontSizeToRelative(10.5, 842), 842)).toBe(10.5);
  });

  it('uses the default page size for unknown pages', () => {
    expect(pageSizeOf([], 3)).toEqual({ width: 853.5, height: 1104.5 });
    expect(pageSizeOf([page], 1)).toBe(page);
  });

  it('maps a drop point to page fractions', () => {
    expect(pointToRelative(150, 300, { left: 100, top: 100, width: 200, height: 400 })).toEqual({ x: 0.25, y: 0.5 });
    expect(pointToRelative(0, 900, { left: 100, top: 100, width: 200, height: 400 })).toEqual({ x: 0, y: 1 });
  });

  it('follows the page number input rules', () => {
    expect(parsePageInput('3', 5)).toEqual({ field: '3', page: 3 });
    expect(parsePageInput('9', 5)).toBeNull();
    expect(parsePageInput('0', 5)).toEqual({ field: '', page: null });
    expect(parsePageInput('-2', 5)).toEqual({ field: '', page: null });
    expect(parsePageInput('abc', 5)).toEqual({ field: '', page: null });
  });

  it('finds the page under a scroll position', () => {
    const { tops, total } = pageOffsets([page, page, { width: 600, height: 400 }], 1, 10);
    expect(tops).toEqual([0, 810, 1620]);
    expect(total).toBe(2030);
    expect(pageAt(tops, 0)).toBe(1);
    expect(pageAt(tops, 809)).toBe(1);
    expect(pageAt(tops, 810)).toBe(2);
    expect(pageAt(tops, 5000)).toBe(3);
  });

  it('steps and fits the zoom', () => {
    expect(stepZoom(1, 1)).toBe(1.1);
    expect(stepZoom(1, -1)).toBe(0.9);
    expect(stepZoom(4, 1)).toBe(4);
    expect(fitWidthZoom([page, { width: 1200, height: 800 }], 600)).toBe(0.5);
  });
});
