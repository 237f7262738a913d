/**
 * A script chunk that fails to load (usually: a new deployment removed the old file) reloads the page
 * once per session, which fetches the new index.html and its chunks. Chunk loads give up after 120 s.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

const RELOADED_KEY = 'sheaf.chunkReloaded';
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** Reloads unless this session already did; returns whether it reloads. */
export function reloadOncePerSession(): boolean {
  try {
    if (sessionStorage.getItem(RELOADED_KEY)) return false;
    sessionStorage.setItem(RELOADED_KEY, String(Date.now()));
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}

/** Vite reports failed preloads of dynamic imports with this event. */
export function installChunkReload(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadOncePerSession()) event.preventDefault();
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Chunk load timed out')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** React.lazy whose failed import reloads the page once (then the error boundary shows). */
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyExoticComponent<ComponentType<P>> {
  return lazy(() =>
    withTimeout(load(), CHUNK_LOAD_TIMEOUT_MS).catch((error: unknown) => {
      // While the reload happens, stay suspended instead of flashing the error screen.
      if (reloadOncePerSession()) return new Promise<{ default: ComponentType<P> }>(() => undefined);
      throw error;
    }),
  );
}
