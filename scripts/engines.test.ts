/**
 * The README states one Node.js requirement (package.json "engines"). Every package the lockfile installs
 * must accept the oldest Node.js that requirement allows, or `npm install` warns (EBADENGINE) and the
 * package may break at run time on a Node.js the README promises to support. When a dependency raises
 * its own floor, pin an older version (package.json "overrides") or raise the requirement everywhere.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));

interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
  optional?: boolean;
  dev?: boolean;
}

it('every installed package accepts the Node.js version the README states', () => {
  const required: string = read('package.json').engines.node;
  const oldest = semver.minVersion(required)!.version;
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  expect(readme).toContain(`Node.js ${oldest.replace(/\.0$/, '')} or newer`);

  const lock = read('package-lock.json') as { packages: Record<string, LockEntry> };
  const refusing = Object.entries(lock.packages)
    .filter(([name, entry]) => name.includes('node_modules/') && entry.engines && !Array.isArray(entry.engines) && entry.engines.node)
    .filter(([, entry]) => !semver.satisfies(oldest, (entry.engines as { node: string }).node, { includePrerelease: true }))
    .map(([name, entry]) => `${name.replace(/^.*node_modules\//, '')}@${entry.version} wants node ${(entry.engines as { node: string }).node}`);
  expect(refusing, `packages that refuse Node.js ${oldest}`).toEqual([]);
});
