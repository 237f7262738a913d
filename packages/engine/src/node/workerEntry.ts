/**
 * Where a worker (thread or child process) written as a .ts module starts from when we run from the
 * sources (tests, development). The compiled server never asks: its build points each
 * `new URL('./x.ts', import.meta.url)` at the bundled x.mjs (scripts/build-server.mjs).
 *
 * From the sources, each worker would register tsx and compile its whole module graph (the engine,
 * pdf-lib, zod...): about a second of CPU per worker. The test run builds the server once before any
 * test (scripts/vitest-global-setup.ts) and names that build in SHEAF_PREBUILT_WORKERS, so workers
 * start from its entries instead. Without it, or for a worker the build lacks, tsx compiles as before.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The built entry for `entry` (a .ts worker module), or `entry` itself. */
export function workerEntry(entry: URL): URL {
  const builds = process.env.SHEAF_PREBUILT_WORKERS;
  if (!builds || !entry.pathname.endsWith('.ts')) return entry;
  const built = join(builds, `${basename(fileURLToPath(entry), '.ts')}.mjs`);
  return existsSync(built) ? pathToFileURL(built) : entry;
}

/** Source that starts a .ts worker module in a worker thread through tsx (used with `eval: true`). */
export function tsBootstrap(entry: URL): string {
  const tsxApi = import.meta.resolve('tsx/esm/api');
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
}
