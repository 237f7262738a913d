import path from 'node:path';
import { makeFixtures } from './make-fixtures.ts';
import { buildWebApp, webBuildIsStale } from './start.mjs';
import { ensureServerBuild } from './build-server.mjs';

/**
 * Before any test file:
 * - generates the test fixtures (they are not committed);
 * - builds the web app the browser tests drive when its sources changed since the last build (swapped
 *   in whole, so servers of test runs already going never serve a half-built app);
 * - builds the server when its sources changed (the browser tests' `sheaf serve` then starts at once),
 *   and names that build in SHEAF_PREBUILT_WORKERS: the worker threads and child processes that tests
 *   start from the sources run its entries instead of compiling the engine with tsx each time, a
 *   second of CPU per worker (packages/engine/src/node/workerEntry.ts). The test files inherit it.
 */
export default async function setup(): Promise<void> {
  await makeFixtures();
  if (webBuildIsStale() && !buildWebApp()) throw new Error('the web app did not build');
  const entry = await ensureServerBuild({ quiet: true });
  process.env.SHEAF_PREBUILT_WORKERS ??= path.dirname(entry);
}
