/**
 * The compiled `sheaf` names the .ts sources in stack traces (bin/source-maps.mjs), reading a build
 * file's source map only when a trace passes through it: not at start, where indexing every chunk's map
 * cost a tenth of `sheaf serve`'s start (bench/README.md "Cold start").
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';

const SOURCE_MAPS = path.resolve(import.meta.dirname, '../bin/source-maps.mjs');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sheaf-source-maps-'));
  await writeFile(
    path.join(dir, 'thrower.ts'),
    ['export function fail(reason: string): never {', '  const message: string = `failed: ${reason}`;', '  throw new Error(message);', '}', ''].join('\n'),
  );
  await build({ entryPoints: [path.join(dir, 'thrower.ts')], outdir: path.join(dir, 'build'), outExtension: { '.js': '.mjs' }, format: 'esm', platform: 'node', sourcemap: 'linked', logLevel: 'error' });
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** Runs `script` (an ES module) in its own process: the hook changes Error.prepareStackTrace for good. */
function run(script: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' }, (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout))),
  );
}

it('maps a frame of the build to its .ts line, reading the map when the trace is made, not when the module loads', async () => {
  const built = path.join(dir, 'build', 'thrower.mjs');
  const map = `${built}.map`;
  const stack = await run(`
    import { renameSync } from 'node:fs';
    import { mapStackTracesLazily } from ${JSON.stringify(pathToFileURL(SOURCE_MAPS).href)};
    mapStackTracesLazily(${JSON.stringify(path.dirname(built))});
    renameSync(${JSON.stringify(map)}, ${JSON.stringify(`${map}.away`)}); // not there while the module loads
    const { fail } = await import(${JSON.stringify(pathToFileURL(built).href)});
    renameSync(${JSON.stringify(`${map}.away`)}, ${JSON.stringify(map)});
    try {
      fail('no paper');
    } catch (error) {
      process.stdout.write(error.stack);
    }
  `);
  const lines = stack.split('\n');
  expect(lines[0]).toBe('Error: failed: no paper');
  expect(lines[1]).toContain(`${path.join(dir, 'thrower.ts')}:3:9`); // the throw, in the source
  expect(stack).not.toContain('thrower.mjs');
  expect(lines[2]).toContain('[eval'); // frames outside the build stay as V8 wrote them
});

it('leaves a frame as it is when the build file has no map', async () => {
  const built = path.join(dir, 'build', 'thrower.mjs');
  await rename(`${built}.map`, `${built}.map.gone`);
  try {
    const stack = await run(`
      import { mapStackTracesLazily } from ${JSON.stringify(pathToFileURL(SOURCE_MAPS).href)};
      mapStackTracesLazily(${JSON.stringify(path.dirname(built))});
      const { fail } = await import(${JSON.stringify(pathToFileURL(built).href)});
      try { fail('no map'); } catch (error) { process.stdout.write(error.stack); }
    `);
    expect(stack.split('\n')[1]).toContain(`${pathToFileURL(built).href}:`);
  } finally {
    await rename(`${built}.map.gone`, `${built}.map`);
  }
});
