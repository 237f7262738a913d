/**
 * The template's PDF work that runs off the main thread: the engine's guarded check of an upload,
 * unlocking an encrypted template, and first-page thumbnails (made in the background after an upload).
 */
import { checkTemplateSafely, type TemplateFacts } from '@sheaf/engine/node';
import { SheafError } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { WorkerPool } from '../../workers/pool.ts';
import type { PdfTask, ThumbnailResult, UnlockResult } from './pdf-worker.ts';
import { markThumbnail } from './repository.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';

const THUMBNAIL_WIDTH = 300;
const pdfWorkers = new WorkerPool<PdfTask, ThumbnailResult | UnlockResult>(new URL('./pdf-worker.ts', import.meta.url), {
  timeoutMs: 30_000,
  maxMemoryMb: 1024,
  timeoutError: () => new SheafError('template/timeout'),
  memoryError: () => new SheafError('template/too-complex'),
});

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
  try {
    const facts = await checkTemplateSafely({ bytes, repair: true });
    return facts.encrypted ? { kind: 'opens-without-password' } : { kind: 'plain', facts };
  } catch (error) {
    if (error instanceof SheafError && error.code === 'template/encrypted') return { kind: 'locked' };
    throw error;
  }
}

/** Decrypts (the password may be '' for owner-only protection), reads the pages, renders page 1. */
export function unlockPdf(bytes: Uint8Array, password: string): Promise<UnlockResult> {
  return pdfWorkers.run({ kind: 'unlock', bytes, password, width: THUMBNAIL_WIDTH }) as Promise<UnlockResult>;
}

export async function renderThumbnail(bytes: Uint8Array): Promise<Uint8Array | null> {
  const result = await pdfWorkers.run({ kind: 'thumbnail', bytes, width: THUMBNAIL_WIDTH });
  return result.png;
}

/** Stores a rendered thumbnail and flags it, unless the file changed meanwhile (checksum differs). */
export async function storeThumbnail(ctx: AppContext, ownerId: string, templateId: string, checksum: string, png: Uint8Array): Promise<boolean> {
  await ctx.blobs.put(blobLayout.template.thumbnail(templateId), png);
  return markThumbnail(ctx.db, ownerId, templateId, checksum);
}

/** Renders in the background: the upload answers first; thumbnailUrl stays null until this is done. */
export function scheduleThumbnail(ctx: AppContext, ownerId: string, templateId: string, checksum: string, bytes: Uint8Array): void {
  void (async () => {
    const png = await renderThumbnail(bytes);
    if (png) await storeThumbnail(ctx, ownerId, templateId, checksum, png);
  })().catch((error: unknown) => {
    // The template may have been deleted or the server closed meanwhile; the UI shows an icon.
    ctx.log.warn({ templateId, err: error instanceof Error ? error.message : String(error) }, 'thumbnail not made');
  });
}
