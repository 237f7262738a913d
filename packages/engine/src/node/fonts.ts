/** Reads the bundled DejaVu Sans files (the fallback for characters a chosen font cannot print). */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FallbackFonts } from '../merge/types.ts';

const require = createRequire(import.meta.url);

/** The dejavu-fonts-ttf package's ttf folder, wherever npm put it. */
function dejavuFolder(): string {
  return path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
}

let loading: Promise<FallbackFonts> | undefined;
let loaded: FallbackFonts | undefined;

/** True for the fonts loadBundledFallbackFonts gave: a worker thread reads its own rather than be sent them. */
export function isBundledFallbackFonts(fonts: FallbackFonts): boolean {
  return fonts === loaded;
}

/** DejaVu Sans regular, bold, oblique and bold oblique; read once per process. */
export function loadBundledFallbackFonts(): Promise<FallbackFonts> {
  loading ??= (async () => {
    const folder = dejavuFolder();
    const read = (name: string) => readFile(path.join(folder, name)).then((bytes) => new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const [regular, bold, italic, boldItalic] = await Promise.all([
      read('DejaVuSans.ttf'), read('DejaVuSans-Bold.ttf'), read('DejaVuSans-Oblique.ttf'), read('DejaVuSans-BoldOblique.ttf'),
    ]);
    loaded = { regular, bold, italic, boldItalic };
    return loaded;
  })();
  loading.catch(() => { loading = undefined; });
  return loading;
}
