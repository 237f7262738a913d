/**
 * Generates every test fixture into fixtures/generated/ (git-ignored, nothing binary committed).
 * Each area has its own generator module in scripts/fixtures/ whose default export writes into the
 * folder it is given; this runner finds and calls them all. Generators skip files that exist.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

export type FixtureGenerator = (dir: string) => Promise<void>;

const here = path.dirname(fileURLToPath(import.meta.url));
export const FIXTURES_DIR = path.resolve(here, '..', 'fixtures', 'generated');

export async function makeFixtures(): Promise<void> {
  await mkdir(FIXTURES_DIR, { recursive: true });
  const modules = (await readdir(path.join(here, 'fixtures'))).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts')).sort();
  for (const name of modules) {
    const module = (await import(pathToFileURL(path.join(here, 'fixtures', name)).href)) as { default: FixtureGenerator };
    await module.default(FIXTURES_DIR);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await makeFixtures();
  console.log(`fixtures written to ${FIXTURES_DIR}`);
}
