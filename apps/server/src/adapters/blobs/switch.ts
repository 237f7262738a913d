/**
 * A file and the row that describes it as one unit (issue #11): the new content goes under a key of its
 * own (a fresh file id, blobLayout), the row is switched to it in a database transaction, and the file it
 * replaces is removed only after the commit. A failure before the commit (a refused row, a commit that
 * fails) removes the new file and leaves the old row and its file as they were; nothing is ever written
 * over a file a committed row points at.
 */
import type { BlobStore } from './types.ts';

export interface Switched<T> {
  result: T;
  /** Keys of the files the committed row no longer points at (removed after the commit). */
  replaced: ReadonlyArray<string | undefined>;
}

export async function writeAndSwitch<T>(
  blobs: BlobStore,
  newKey: string,
  bytes: Uint8Array,
  /** The transaction switching the row to `newKey`; it reads the row's previous key under a lock. */
  switchRow: () => Promise<Switched<T>>,
  /**
   * Asked after a failure: whether a committed row points at `newKey` after all (a commit whose answer was
   * lost), in which case the file stays.
   */
  isInUse: () => Promise<boolean>,
): Promise<T> {
  await blobs.put(newKey, bytes);
  let switched: Switched<T>;
  try {
    switched = await switchRow();
  } catch (error) {
    if (!(await isInUse().catch(() => true))) await blobs.delete(newKey).catch(() => undefined);
    throw error;
  }
  await removeReplaced(blobs, switched.replaced, newKey);
  return switched.result;
}

/** Removes files a committed change left unreferenced (a failure here leaves an orphan, never a broken row). */
export async function removeReplaced(blobs: BlobStore, keys: ReadonlyArray<string | undefined>, keep?: string): Promise<void> {
  for (const key of keys) if (key && key !== keep) await blobs.delete(key).catch(() => undefined);
}
