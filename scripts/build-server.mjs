#!/usr/bin/env node
/**
 * The server build: esbuild bundles the `sheaf` command (apps/server/src/cli/main.ts) and every worker
 * thread's entry into plain ESM under apps/server/dist/, so `sheaf`, `npm start` and the workers start
 * without a TypeScript compiler (tsx stays for development and tests, which run the sources).
 *
 * - The workspace packages (@sheaf/shared, @sheaf/engine: TypeScript sources) are bundled; every
 *   package from node_modules stays external (native and wasm ones such as @electric-sql/pglite,
 *   @napi-rs/canvas, argon2 and pdfjs-dist must load from their own folders).
 * - Code splitting: what the command and the workers share is one chunk, and what the sources load with
 *   `await import()` (the server, pdf.js, canvas...) stays a chunk loaded on first use.
 * - Each build goes to its own folder, dist/<build>/, and dist/current.json names the newest: a process
 *   still running an older build keeps loading its lazy chunks and worker entries from that folder
 *   while another `sheaf` rebuilds. Each process records its pid in the build it runs (dist/<build>/pids/);
 *   a build is removed once it was replaced more than an hour ago and no process recorded in it is alive.
 * - Linked source maps: bin/sheaf.mjs maps stack traces to the .ts sources, reading a map only when a trace needs it.
 *
 * `node scripts/build-server.mjs` builds now; bin/sheaf.mjs and scripts/start.mjs call ensureServerBuild(),
 * which builds only when a source is newer than the current build.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * Where builds go; SHEAF_SERVER_DIST points elsewhere (tests build into a scratch folder). It must lie
 * inside the repository: the build's external packages are resolved from the node_modules above it.
 */
export const DIST_DIR = path.resolve(process.env.SHEAF_SERVER_DIST ?? path.join(root, 'apps/server/dist'));
const CURRENT = path.join(DIST_DIR, 'current.json');
const LOCK = path.join(DIST_DIR, 'build.lock');
/** The sources bundled into the build; a change under any of them (or to this script) makes it stale. */
const SOURCE_DIRS = ['apps/server/src', 'packages/shared/src', 'packages/engine/src'].map((dir) => path.join(root, dir));
const THIS_SCRIPT = fileURLToPath(import.meta.url);
/** Grace after a build is replaced: a process may have chosen it just before and not yet recorded its pid. */
const KEEP_OLD_BUILDS_MS = 60 * 60 * 1000;

/** Newest modification time under the source folders (folders count too: a deleted file changes its folder). */
function newestSourceMtime() {
  let newest = statSync(THIS_SCRIPT).mtimeMs;
  const walk = (dir) => {
    newest = Math.max(newest, statSync(dir).mtimeMs);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  for (const dir of SOURCE_DIRS) walk(dir);
  return newest;
}

/** The current build ({ dir, entry, sourcesMtime }) or undefined when there is none or it is incomplete. */
export function currentServerBuild() {
  try {
    const current = JSON.parse(readFileSync(CURRENT, 'utf8'));
    const dir = path.join(DIST_DIR, current.dir);
    const entry = path.join(dir, 'sheaf.mjs');
    return existsSync(entry) ? { ...current, dir, entry } : undefined;
  } catch {
    return undefined;
  }
}

/** True when there is no build or a source changed after the current build read it. */
export function serverBuildIsStale() {
  const current = currentServerBuild();
  return !current || newestSourceMtime() > current.sourcesMtime;
}

/**
 * Worker threads are started as `new Worker(new URL('./x-worker.ts', import.meta.url))` in the sources.
 * Under tsx (development, tests) that names the .ts file and the worker registers tsx itself; in the
 * bundle the same expression must name the built entry instead. Rather than a helper every caller must
 * remember, the build finds each such URL in the sources, makes the file an entry point of its own and
 * rewrites the expression to `new URL('./x-worker.mjs', import.meta.url)`: all output files sit in one
 * folder, so that resolves from whichever chunk the expression lands in. A new worker needs nothing more.
 */
const WORKER_URL = /new URL\(\s*(['"])(\.{1,2}\/[^'"]+\.ts)\1\s*,\s*import\.meta\.url\s*\)/g;

/** Comments may show the pattern as an example: only code counts. */
const withoutComments = (code) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

function findWorkerEntries() {
  const entries = new Map(); // absolute .ts path -> output name
  const names = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (full.endsWith('.ts') && !full.endsWith('.test.ts')) {
        for (const match of withoutComments(readFileSync(full, 'utf8')).matchAll(WORKER_URL)) {
          const target = path.resolve(path.dirname(full), match[2]);
          const name = path.basename(target, '.ts');
          if (names.has(name) && names.get(name) !== target) throw new Error(`two worker entries named ${name}: ${names.get(name)} and ${target}`);
          names.set(name, target);
          entries.set(target, name);
        }
      }
    }
  };
  for (const dir of SOURCE_DIRS) walk(dir);
  return entries;
}

/**
 * Rewrites our sources as esbuild loads them: worker URLs to the built entries (above), and every other
 * `import.meta.url` to the module's own source location, so a module finds what lies beside its source
 * (the SQL migrations, the repository root, packages resolved from its workspace) exactly as under tsx,
 * wherever its code ends up in the bundle.
 */
const BUNDLE_URL = '__sheafBundleUrl__';

function sourceLocationPlugin(outDir, workers) {
  return {
    name: 'sheaf-source-locations',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        let code = readFileSync(args.path, 'utf8');
        code = code.replace(WORKER_URL, (whole, _quote, relative) => {
          const name = workers.get(path.resolve(path.dirname(args.path), relative));
          return name ? `new URL('./${name}.mjs', ${BUNDLE_URL})` : whole;
        });
        const own = path.relative(outDir, args.path).split(path.sep).join('/');
        code = code.replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, import.meta.url).href`);
        code = code.replaceAll(BUNDLE_URL, 'import.meta.url'); // the worker URLs: relative to the output file
        return { contents: code, loader: 'ts' };
      });
    },
  };
}

/**
 * Packages bundled into the build: pure JavaScript that reads nothing beside itself. One file to parse
 * instead of hundreds (zod is ~190 modules, pdf-lib ~140) is most of `sheaf merge`'s start-up. What they
 * import is bundled too, unless it is in KEPT_EXTERNAL. Everything else from node_modules stays external:
 * native and wasm packages (@electric-sql/pglite, @napi-rs/canvas, argon2, pdfjs-dist, esbuild), ones that
 * read files or start workers from their own folder (bullmq's Lua scripts, pino's transports, swagger-ui's
 * pages). Fastify and its plugins are bundled (about 300 CommonJS files found, read and compiled one by one
 * at every start otherwise); ajv and fast-json-stringify compile code at run time from values, not files.
 * A package used both from our code and from an external one must be bundled with both (two copies of zod
 * would keep two registries of schema metadata): hence fastify-type-provider-zod.
 */
// Not here: what the sources load on first use with createRequire (fontkit, sanitize-html, html-to-text,
// SheetJS, nodemailer) comes from node_modules then, so that it costs nothing at start.
const BUNDLED = new Set([
  'pdf-lib', '@pdf-lib/standard-fonts', '@pdf-lib/upng', 'pako', 'tslib',
  'zod', 'fastify-type-provider-zod', 'qrcode', '@noble/hashes', '@noble/ciphers', 'fflate', 'bidi-js',
  'commander', 'jose',
  'fastify', '@fastify/multipart', '@fastify/static', '@fastify/swagger', '@fastify/swagger-ui',
]);
/**
 * Bundled packages that read files beside their own code through __dirname (swagger-ui's page and
 * scripts): each __dirname of theirs becomes the package folder's location, found from the output file.
 */
const READS_OWN_FOLDER = new Set(['@fastify/swagger-ui']);
const KEPT_EXTERNAL = new Set(['@fastify/error', 'fastify-plugin', 'pino']);
const packageName = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

function ownFolderPlugin(outDir) {
  return {
    name: 'sheaf-own-folder',
    setup(build) {
      build.onLoad({ filter: /\.c?js$/ }, (args) => {
        const inPackage = args.path.split(`${path.sep}node_modules${path.sep}`).at(-1);
        if (inPackage === args.path || !READS_OWN_FOLDER.has(packageName(inPackage.split(path.sep).join('/')))) return undefined;
        const folder = path.relative(outDir, path.dirname(args.path)).split(path.sep).join('/');
        const code = readFileSync(args.path, 'utf8').replace(/\b__dirname\b/g, `__sheafFolder(${JSON.stringify(folder)})`);
        return { contents: code, loader: 'js' };
      });
    },
  };
}
const inNodeModules = (file) => file.includes(`${path.sep}node_modules${path.sep}`);

const externalPackages = {
  name: 'sheaf-external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@sheaf/') || args.path.startsWith('node:')) return undefined;
      const name = packageName(args.path);
      if (BUNDLED.has(name)) return undefined;
      // A bundled package's own dependencies come along (the importer is in node_modules only then).
      if (inNodeModules(args.importer) && !KEPT_EXTERNAL.has(name)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * CommonJS packages in an ES module bundle call require() for Node's modules (fs, path...): each output
 * file gets a real one (esbuild renames our sources' own top-level `require`s: it never shadows a global one).
 */
const REQUIRE_BANNER = [
  "import { createRequire as __sheafCreateRequire } from 'node:module';",
  "import { fileURLToPath as __sheafFileURLToPath } from 'node:url';",
  'const require = __sheafCreateRequire(import.meta.url);',
  // ownFolderPlugin's __dirname: a folder relative to this output file.
  'const __sheafFolder = (relative) => __sheafFileURLToPath(new URL(relative, import.meta.url));',
].join('\n');

function bundle(esbuild, entryPoints, outDir, workers, quiet) {
  return esbuild.build({
    entryPoints,
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    entryNames: '[name]',
    chunkNames: '[name]-[hash]', // beside the entries: see WORKER_URL
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: false, // stack traces need the mappings only; the sources' text would sit in memory
    banner: { js: REQUIRE_BANNER },
    logLevel: quiet ? 'error' : 'warning',
    plugins: [externalPackages, ownFolderPlugin(outDir), sourceLocationPlugin(outDir, workers)],
  });
}

/** Builds into a new dist/<build>/ folder and makes it current. Returns the build's folder. */
export async function buildServer({ quiet = false } = {}) {
  const started = Date.now();
  const sourcesMtime = newestSourceMtime(); // read before bundling: an edit during the build leaves it stale
  const requireFromServer = createRequire(path.join(root, 'apps/server/package.json'));
  const esbuildModule = await import(pathToFileURL(requireFromServer.resolve('esbuild')).href);
  const esbuild = esbuildModule.default ?? esbuildModule;
  const name = `build-${started}-${process.pid}`;
  const outDir = path.join(DIST_DIR, name);
  const workers = findWorkerEntries();
  const entryPoints = [{ in: path.join(root, 'apps/server/src/cli/main.ts'), out: 'sheaf' }];
  for (const [file, out] of workers) entryPoints.push({ in: file, out });
  try {
    await bundle(esbuild, entryPoints, outDir, workers, quiet);
  } finally {
    // esbuild's service is a child process: left running, it would sit in `sheaf serve`'s memory for good.
    await esbuild.stop();
  }
  const current = { dir: name, sourcesMtime, builtAt: new Date().toISOString(), workers: [...workers.values()] };
  markReplaced(currentServerBuild()?.dir);
  const temporary = `${CURRENT}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(current, null, 2)}\n`);
  renameSync(temporary, CURRENT);
  removeOldBuilds(name);
  if (!quiet) process.stderr.write(`sheaf: server built in ${Date.now() - started} ms (${path.relative(root, outDir)})\n`);
  return outDir;
}

/** A build's folder time is when it stopped being current (the hour of grace counts from then). */
function markReplaced(dir) {
  if (!dir) return;
  const now = new Date();
  try {
    utimesSync(dir, now, now);
  } catch {
    // already gone
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM'; // alive, someone else's
  }
}

/** Pids recorded in a build (dist/<build>/pids/<pid>) of processes still running; dead ones are forgotten. */
function livePids(dir) {
  const pids = path.join(dir, 'pids');
  if (!existsSync(pids)) return [];
  return readdirSync(pids).filter((name) => {
    if (isAlive(Number(name))) return true;
    rmSync(path.join(pids, name), { force: true });
    return false;
  });
}

/**
 * Records this process as running the build in `dir` (the record goes when it exits; a crash leaves
 * one whose pid is then found dead). removeOldBuilds leaves the folder while the process lives.
 */
function recordUse(dir) {
  const file = path.join(dir, 'pids', String(process.pid));
  if (recorded.has(file)) return;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '');
  recorded.add(file);
  if (recorded.size === 1) process.on('exit', () => recorded.forEach((each) => rmSync(each, { force: true })));
}
const recorded = new Set();

/** Removes builds replaced more than an hour ago that no running process uses. */
function removeOldBuilds(keep) {
  for (const entry of readdirSync(DIST_DIR, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === keep || !entry.name.startsWith('build-')) continue;
    const full = path.join(DIST_DIR, entry.name);
    if (Date.now() - statSync(full).mtimeMs > KEEP_OLD_BUILDS_MS && livePids(full).length === 0) rmSync(full, { recursive: true, force: true });
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function lockHolderIsGone() {
  try {
    const pid = Number(readFileSync(LOCK, 'utf8'));
    process.kill(pid, 0);
    return Date.now() - statSync(LOCK).mtimeMs > 5 * 60 * 1000; // alive but stuck for minutes: take over
  } catch (error) {
    return error.code !== 'EPERM'; // no such process (or the lock went away meanwhile)
  }
}

/**
 * The current build's entry (dist/<build>/sheaf.mjs), building first when it is missing or stale.
 * Several processes starting at once (a test run spawns many) build once: one holds the lock, the
 * others wait for it and use its build.
 */
export async function ensureServerBuild({ quiet = false } = {}) {
  mkdirSync(DIST_DIR, { recursive: true });
  for (;;) {
    if (!serverBuildIsStale()) {
      const current = currentServerBuild();
      recordUse(current.dir);
      if (existsSync(current.entry)) return current.entry; // else removed before the record was made: choose again
      continue;
    }
    let lock;
    try {
      lock = openSync(LOCK, 'wx');
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (lockHolderIsGone()) rmSync(LOCK, { force: true });
      else await sleep(100);
      continue;
    }
    try {
      writeSync(lock, String(process.pid));
      closeSync(lock);
      if (serverBuildIsStale()) {
        if (!quiet) process.stderr.write('sheaf: building the server (first start or sources changed)...\n');
        await buildServer({ quiet });
      }
    } finally {
      rmSync(LOCK, { force: true });
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(DIST_DIR, { recursive: true });
  await buildServer();
}
