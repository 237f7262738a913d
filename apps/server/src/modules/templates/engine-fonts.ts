/** The engine's fallback fonts (DejaVu Sans), read from disk once per process. */
import type { FallbackFonts } from '@sheaf/engine';
import { loadBundledFallbackFonts } from '@sheaf/engine/node';

let fonts: Promise<FallbackFonts> | undefined;

export function fallbackFonts(): Promise<FallbackFonts> {
  fonts ??= loadBundledFallbackFonts();
  // A failed read is not remembered: the next merge tries again.
  fonts.catch(() => { fonts = undefined; });
  return fonts;
}
