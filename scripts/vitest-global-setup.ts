import { makeFixtures } from './make-fixtures.ts';

/** Generates the test fixtures once per test run (they are not committed). */
export default async function setup(): Promise<void> {
  await makeFixtures();
}
