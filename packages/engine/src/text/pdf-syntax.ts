/** Small, allocation-light writers of content-stream syntax used on every row. */

/** A number for a content stream: at most 3 decimals, no exponent, no "-0". */
export function num(value: number): string {
  const rounded = Math.round(value * 1000) / 1000;
  return rounded === 0 ? '0' : String(rounded);
}

const colourCache = new Map<string, string>();

/** "#rrggbb" -> "r g b" (0..1 each); anything unreadable is black. */
export function rgb(hex: string): string {
  let cached = colourCache.get(hex);
  if (cached === undefined) {
    const match = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
    cached = match ? [match[1], match[2], match[3]].map((part) => num(parseInt(part!, 16) / 255)).join(' ') : '0 0 0';
    if (colourCache.size < 1024) colourCache.set(hex, cached);
  }
  return cached;
}

/** Four upper-case hex digits of a 16-bit code. */
export function hex4(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, '0');
}
