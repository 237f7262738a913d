/**
 * The template's PDF work that runs in child processes with a deadline and a cap on their whole memory
 * (workers/child-pool.ts): the check of an upload, unlocking an encrypted template, first-page
 * thumbnails (made in the background after an upload) and the editor's preview. The engine refuses a
 * stream that unpacks beyond its budget (template/too-large-when-unpacked); the cap catches the rest.
 */
import { SheafError } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { ChildPool } from '../../workers/child-pool.ts';
import type { CheckResult, DocxCheckResult, PdfTask, PreviewResult, PreviewTask, ThumbnailResult, UnlockResult } from './pdf-worker.ts';
import { markThumbnail } from './repository.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';

const THUMBNAIL_WIDTH = 300;
const pdfWorkers = new ChildPool<PdfTask, CheckResult | ThumbnailResult | UnlockResult | PreviewResult | DocxCheckResult>(new URL('./pdf-worker.ts', import.meta.url), {
  timeoutMs: 30_000,
  maxMemoryMb: 1024,
  timeoutError: () => new SheafError('template/timeout'),
  memoryError: () => new SheafError('template/too-complex'),
});

/** Pages and repair state of a readable template. */
export interface TemplateFacts {
  pageCount: number;
  repaired: boolean;
  pages: Array<{ width: number; height: number }>;
}

/** What an uploaded PDF turned out to be. */
export type CheckedPdf =
  | { kind: 'plain'; facts: TemplateFacts }
  /** Encrypted with an empty user password: it opens without one, so it is unlocked at once. */
  | { kind: 'opens-without-password' }
  /** Needs a password: stored locked, pages unknown until the owner unlocks it. */
  | { kind: 'locked' };

/**
 * The engine reads the whole file in a worker. Repair is allowed, so files the merge can repair (when
 * the user turns repair on in step 4) are accepted; files beyond repair are refused here.
 */
export async function checkPdf(bytes: Uint8Array): Promise<CheckedPdf> {
  const result = (await pdfWorkers.run({ kind: 'check', bytes })) as CheckResult;
  if (result.kind !== 'plain') return result;
  const { kind: _kind, ...facts } = result;
  return { kind: 'plain', facts };
}

/** A Word template's fields; throws the engine's template/word-* error for a DOCX it cannot read. */
export async function checkDocx(bytes: Uint8Array): Promise<DocxCheckResult> {
  return (await pdfWorkers.run({ kind: 'docx-check', bytes })) as DocxCheckResult;
}

/** The preview's combined PDF, made by the engine in a child process. */
export async function renderPreview(task: Omit<PreviewTask, 'kind'>): Promise<Uint8Array> {
  const result = (await pdfWorkers.run({ kind: 'preview', ...task })) as PreviewResult;
  return result.pdf;
}

/** Ends the child processes (tests). */
export function closePdfWorkers(): void {
  pdfWorkers.close();
}

/** Decrypts (the password may be '' for owner-only protection), reads the pages, renders page 1. */
export function unlockPdf(bytes: Uint8Array, password: string): Promise<UnlockResult> {
  return pdfWorkers.run({ kind: 'unlock', bytes, password, width: THUMBNAIL_WIDTH }) as Promise<UnlockResult>;
}

export async function renderThumbnail(bytes: Uint8Array): Promise<Uint8Array | null> {
  const result = (await pdfWorkers.run({ kind: 'thumbnail', bytes, width: THUMBNAIL_WIDTH })) as ThumbnailResult;
  return result.png;
}

/**
 * Stores a rendered thumbnail under its PDF's checksum and flags it; when the file changed meanwhile
 * (checksum differs) or the template is gone, the render is not wanted and its file goes again.
 */
export async function storeThumbnail(ctx: AppContext, ownerId: string, templateId: string, checksum: string, png: Uint8Array): Promise<boolean> {
  const key = blobLayout.template.thumbnail(templateId, checksum);
  await ctx.blobs.put(key, png);
  const marked = await markThumbnail(ctx.db, ownerId, templateId, checksum);
  if (!marked) await ctx.blobs.delete(key).catch(() => undefined);
  return marked;
}

/** Renders in the background: the upload answers first; thumbnailUrl stays null until this is done. */
export function scheduleThumbnail(ctx: AppContext, ownerId: string, templateId: string, checksum: string, bytes: Uint8Array): void {
  ctx.background.run(
    async () => {
      const png = await renderThumbnail(bytes);
      if (png) await storeThumbnail(ctx, ownerId, templateId, checksum, png);
    },
    // The template may have been deleted meanwhile; the UI shows an icon.
    (error) => ctx.log.warn({ templateId, err: error instanceof Error ? error.message : String(error) }, 'thumbnail not made'),
  );
}
