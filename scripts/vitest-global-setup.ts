import { makeFixtures } from './make-fixtures.ts';
import { buildWebApp, webBuildIsStale } from './start.mjs';

/** Generates the test fixtures once per test run (they are not committed), and builds the web app the
 * browser tests drive when its sources changed since the last build (swapped in whole, so servers of
 * test runs already going never serve a half-built app). */
export default async function setup(): Promise<void> {
  await makeFixtures();
  if (webBuildIsStale() && !buildWebApp()) throw new Error('the web app did not build');
}
