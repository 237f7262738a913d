/**
 * Template bytes cached in IndexedDB by template id and checksum (docs/library.md#local-cache):
 * a template opened again loads without a download; a changed checksum replaces the stale entry.
 * Storage that is unavailable (private modes, quota) only costs a download, never an error.
 */
import { api } from './client.ts';

const DB_NAME = 'sheaf-cache';
const STORE = 'templates';

interface Entry {
  checksum: string;
  bytes: Uint8Array;
}

let opening: Promise<IDBDatabase | null> | null = null;

function openDb(): Promise<IDBDatabase | null> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null);
  opening ??= new Promise((resolve) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
    request.onblocked = () => resolve(null);
  });
  return opening;
}

function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T | undefined> {
  return openDb().then((db) => {
    if (!db) return undefined;
    return new Promise<T | undefined>((resolve) => {
      try {
        const request = work(db.transaction(STORE, mode).objectStore(STORE));
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => resolve(undefined);
      } catch {
        resolve(undefined);
      }
    });
  });
}

/** The template's PDF bytes: from the cache when the checksum matches, else downloaded and cached. */
export async function getTemplateBytes(id: string, checksum: string): Promise<Uint8Array> {
  const cached = await run<Entry | undefined>('readonly', (store) => store.get(id));
  if (cached && cached.checksum === checksum && cached.bytes instanceof Uint8Array) return cached.bytes;
  const blob = await api.blob('downloadTemplate', { params: { id } });
  const bytes = new Uint8Array(await blob.arrayBuffer());
  // One entry per id: writing under the same key drops the stale version.
  await run('readwrite', (store) => store.put({ checksum, bytes } satisfies Entry, id));
  return bytes;
}

/** Forget one template (deleted, or its file replaced). */
export async function removeCachedTemplate(id: string): Promise<void> {
  await run('readwrite', (store) => store.delete(id));
}

/** Logout: nothing of this user stays on the device. */
export async function clearTemplateCache(): Promise<void> {
  await run('readwrite', (store) => store.clear());
}
