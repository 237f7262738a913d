#!/usr/bin/env node
// `npm start`: builds the web app and the server (scripts/build-server.mjs) when their sources changed
// since the last build, then serves the whole app (API + web) with `sheaf serve` on the embedded
// defaults (PGlite, local files, in-process jobs, account mail in a local outbox). Environment
// variables (see .env.example) change any default.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServerBuild } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const marker = path.join(root, 'apps/web/dist/build.json');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

export function webBuildIsStale() {
  // No index.html: a build that failed half way (vite empties dist/ first) is no build.
  if (!existsSync(marker) || !existsSync(path.join(root, 'apps/web/dist/index.html'))) return true;
  const built = statSync(marker).mtimeMs;
  const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/shared/src'];
  return sources.some((source) => {
    const full = path.join(root, source);
    if (!existsSync(full)) return false;
    return (statSync(full).isDirectory() ? newestMtime(full) : statSync(full).mtimeMs) > built;
  });
}

/**
 * Builds the web app into a scratch folder, then swaps it in for apps/web/dist whole: a server that
 * is running (another test run, another `npm start`) keeps serving a complete app meanwhile. Always a
 * production build: under a test runner NODE_ENV is 'test', which would bundle React's slow
 * development mode. Returns false when the build failed (dist/ is then left as it was).
 */
export function buildWebApp() {
  const web = path.join(root, 'apps/web');
  const scratch = path.join(web, '.tmp');
  const next = path.join(scratch, `dist-${process.pid}`);
  mkdirSync(scratch, { recursive: true });
  const build = spawnSync('npm', ['run', 'build', '-w', '@sheaf/web', '--', '--outDir', next, '--emptyOutDir'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) {
    rmSync(next, { recursive: true, force: true });
    return false;
  }
  const dist = path.join(web, 'dist');
  const old = path.join(scratch, `old-${process.pid}`);
  if (existsSync(dist)) renameSync(dist, old);
  try {
    renameSync(next, dist);
  } catch {
    // Another build swapped its own in at the same moment: that one is served, this one goes.
    rmSync(next, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (webBuildIsStale()) {
    console.log('sheaf: building the web app (first start or sources changed)...');
    if (!buildWebApp()) process.exit(1);
  }
  // The server runs compiled (apps/server/dist); bin/sheaf.mjs would build it too, this says so first.
  await ensureServerBuild();
  const server = spawn(process.execPath, [path.join(root, 'apps/server/bin/sheaf.mjs'), 'serve', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  // `npm start` runs this through `exec` so npm's SIGTERM reaches us; should the launcher die anyway
  // (killed hard, or a shell that does not forward signals), stop the server rather than orphan it.
  const launcher = process.ppid;
  setInterval(() => {
    if (process.ppid !== launcher) server.kill('SIGTERM');
  }, 500).unref();
}
