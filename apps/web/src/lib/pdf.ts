/**
 * PDF display with pdf.js: load a document, draw a page onto a canvas, or turn a whole (small)
 * document into images (the preview). The worker is bundled by Vite as its own file.
 */
import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy, type RenderTask } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

export type { PDFDocumentProxy };

/** Opens a PDF. pdf.js takes ownership of the buffer it is given, so it gets a copy. */
export function loadPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  return getDocument({ data: bytes.slice(), isEvalSupported: false }).promise;
}

/**
 * Draws a 1-based page at `scale` CSS pixels per point, sharp on high-density screens. The page is
 * drawn as a person sees it (crop box and rotation applied), like placeholder coordinates.
 * Aborting the signal cancels the drawing (the promise then rejects with a RenderingCancelledException).
 */
export async function renderPageToCanvas(
  doc: PDFDocumentProxy,
  pageNo: number,
  canvas: HTMLCanvasElement,
  scale: number,
  signal?: AbortSignal,
): Promise<void> {
  const page = await doc.getPage(pageNo);
  signal?.throwIfAborted();
  const ratio = typeof window === 'undefined' ? 1 : Math.min(window.devicePixelRatio || 1, 2);
  const viewport = page.getViewport({ scale: scale * ratio });
  canvas.width = Math.max(1, Math.floor(viewport.width));
  canvas.height = Math.max(1, Math.floor(viewport.height));
  canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
  canvas.style.height = `${Math.floor(viewport.height / ratio)}px`;
  const task: RenderTask = page.render({ canvas, viewport });
  const cancel = (): void => task.cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    await task.promise;
  } finally {
    signal?.removeEventListener('abort', cancel);
    page.cleanup();
  }
}

/** Renders the first `maxPages` pages to PNG object URLs (the caller revokes them with URL.revokeObjectURL). */
export async function renderPdfPagesToImages(
  bytes: Uint8Array,
  { maxPages = 20, scale = 1.5, signal }: { maxPages?: number; scale?: number; signal?: AbortSignal } = {},
): Promise<string[]> {
  const doc = await loadPdf(bytes);
  const urls: string[] = [];
  try {
    const count = Math.min(doc.numPages, maxPages);
    for (let pageNo = 1; pageNo <= count; pageNo += 1) {
      signal?.throwIfAborted();
      const canvas = document.createElement('canvas');
      await renderPageToCanvas(doc, pageNo, canvas, scale, signal);
      const blob = await new Promise<Blob>((resolve, reject) =>
        canvas.toBlob((result) => (result ? resolve(result) : reject(new Error('canvas could not be encoded'))), 'image/png'),
      );
      urls.push(URL.createObjectURL(blob));
      // Free the pixels at once: a preview may hold many pages.
      canvas.width = 0;
      canvas.height = 0;
    }
    return urls;
  } catch (error) {
    for (const url of urls) URL.revokeObjectURL(url);
    throw error;
  } finally {
    void doc.destroy();
  }
}
