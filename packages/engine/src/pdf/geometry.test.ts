import { describe, expect, it } from 'vitest';
import { pageGeometry, type Matrix } from './geometry.ts';

const apply = ([a, b, c, d, e, f]: Matrix, u: number, v: number) => [a * u + c * v + e, b * u + d * v + f];

describe('pageGeometry', () => {
  it('maps the visual top-left corner to the corner a viewer shows at the top left', () => {
    // Crop box 50 60 650 860 inside a larger media box.
    const crop = [50, 60, 650, 860] as [number, number, number, number];
    const cases: Array<[number, [number, number], [number, number]]> = [
      // rotation, visual size, user-space point shown at the top-left corner
      [0, [600, 800], [50, 860]],
      [90, [800, 600], [50, 60]],
      [180, [600, 800], [650, 60]],
      [270, [800, 600], [650, 860]],
    ];
    for (const [rotation, size, topLeftUser] of cases) {
      const page = pageGeometry([0, 0, 700, 900], crop, rotation);
      expect([page.width, page.height]).toEqual(size);
      expect(apply(page.visualToUser, 0, page.height)).toEqual(topLeftUser);
    }
  });

  it('normalises negative and large rotations and clips the crop box to the media box', () => {
    expect(pageGeometry([0, 0, 100, 200], undefined, -90).rotation).toBe(270);
    expect(pageGeometry([0, 0, 100, 200], undefined, 450).rotation).toBe(90);
    expect(pageGeometry([0, 0, 100, 200], [-10, -10, 50, 300], 0).cropBox).toEqual([0, 0, 50, 200]);
  });
});
