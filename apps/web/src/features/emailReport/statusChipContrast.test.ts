// @vitest-environment node
/**
 * The report's status chips (and every chip, badge and outlined label in the app's palette colours)
 * are readable: WCAG AA asks 4.5:1 for their small text. The "Accepted" chip was 3.85:1 (MUI's
 * default info blue with white text).
 */
import { describe, expect, it } from 'vitest';
import { theme } from '../../app/theme.ts';
import { STATUS_COLOR } from './reportRules.ts';

/** #rgb, #rrggbb or rgb(a)(r, g, b, …) as 0..255 channels (MUI writes contrastText as '#fff'). */
function channels(color: string): number[] {
  const rgb = /^rgba?\(([^)]+)\)$/.exec(color);
  if (rgb) return rgb[1]!.split(',').slice(0, 3).map(Number);
  const hex = color.replace('#', '');
  const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex;
  return [0, 2, 4].map((at) => Number.parseInt(full.slice(at, at + 2), 16));
}

function luminance(color: string): number {
  const [r, g, b] = channels(color).map((c) => c / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

const COLORS = ['primary', 'secondary', 'info', 'success', 'warning', 'error'] as const;

describe('palette contrast', () => {
  it('every status chip of the report is a palette colour checked below', () => {
    for (const color of Object.values(STATUS_COLOR)) expect(['default', ...COLORS]).toContain(color);
  });

  for (const color of COLORS) {
    it(`${color}: filled text and outlined text reach 4.5:1`, () => {
      const { main, contrastText } = theme.palette[color];
      expect(contrast(main, contrastText)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(main, theme.palette.background.paper)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(main, theme.palette.background.default)).toBeGreaterThanOrEqual(4.5);
    });
  }
});
