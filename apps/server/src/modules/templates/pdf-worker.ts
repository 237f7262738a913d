/**
 * Worker side of the template tasks that touch untrusted PDF bytes beyond the engine's check:
 * rendering the first page to a PNG (pdf.js on @napi-rs/canvas), and unlocking an encrypted template.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { decryptPdf, loadTemplate } from '@sheaf/engine';
import { useNativeCrypto } from '@sheaf/engine/node';
import { serveTasks } from '../../workers/pool.ts';

// Unlocking derives keys from the password: Node's native crypto is several times faster than pure JS.
useNativeCrypto();

export type PdfTask =
  | { kind: 'thumbnail'; bytes: Uint8Array; width: number }
  | { kind: 'unlock'; bytes: Uint8Array; password: string; width: number };

export interface ThumbnailResult {
  png: Uint8Array | null;
}

export interface UnlockResult {
  bytes: Uint8Array;
  pages: Array<{ width: number; height: number }>;
  png: Uint8Array | null;
}

const require = createRequire(import.meta.url);

/** The part of pdf.js's Node canvas factory used here (its typings describe the DOM one). */
interface CanvasFactory {
  create(width: number, height: number): { canvas: { toBuffer(type: 'image/png'): Uint8Array }; context: unknown };
}

async function renderFirstPage(bytes: Uint8Array, width: number): Promise<Uint8Array> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // Without the standard font files, text in the 14 base fonts does not render at all.
  const fontFolder = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts');
  const standardFontDataUrl = `${pathToFileURL(fontFolder).pathname}/`;
  // pdf.js detaches the buffer it is given; keep the caller's copy intact.
  const document = await pdfjs.getDocument({ data: bytes.slice(), standardFontDataUrl, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const page = await document.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: width / natural.width });
    // In Node the factory makes @napi-rs/canvas canvases (pdf.js's own copy of the package).
    const factory = document.canvasFactory as CanvasFactory;
    const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const params = { canvasContext: context, canvas, viewport, background: 'white' };
    await page.render(params as unknown as Parameters<typeof page.render>[0]).promise;
    const png = canvas.toBuffer('image/png');
    return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
  } finally {
    await document.destroy();
  }
}

/** A thumbnail that fails to render is no reason to refuse the template: the UI shows an icon. */
async function tryRender(bytes: Uint8Array, width: number): Promise<Uint8Array | null> {
  try {
    return await renderFirstPage(bytes, width);
  } catch {
    return null;
  }
}

async function run(task: PdfTask): Promise<ThumbnailResult | UnlockResult> {
  if (task.kind === 'thumbnail') return { png: await tryRender(task.bytes, task.width) };
  const plain = decryptPdf(task.bytes, task.password);
  const template = await loadTemplate(plain, { repair: true });
  const pages = template.pages.map(({ width, height }) => ({ width, height }));
  return { bytes: plain, pages, png: await tryRender(plain, task.width) };
}

serveTasks(run, 'template/corrupt');
