/**
 * Builds the web app into apps/web/dist, which `sheaf serve` hands out. The shared package is
 * TypeScript source (zod only), bundled like our own code. Every build gets an id written to
 * dist/build.json: open tabs poll it and reload when a newer build is deployed
 * (docs/web-app.md#background-behaviours).
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const here = path.dirname(fileURLToPath(import.meta.url));
const readVersion = (file: string): string | undefined =>
  (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version;
const version = readVersion(path.join(here, '../../package.json')) ?? readVersion(path.join(here, 'package.json')) ?? '0.0.0';
const buildId = process.env.SHEAF_BUILD_ID ?? `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;

/** Emits dist/build.json {version, buildId}: the version check fetches it with no-cache. */
function buildInfo(): Plugin {
  return {
    name: 'sheaf-build-info',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'build.json', source: JSON.stringify({ version, buildId }) });
    },
  };
}

/** src/locales/<language>/<namespace>.json */
const LOCALE_FILE = /src[\\/]locales[\\/]([a-z]+)[\\/][^\\/]+\.json$/;
/** Text formats worth compressing; fonts and images are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|wasm)$/;
/** Below this, the encoding header costs about what compression saves. */
const MIN_COMPRESS_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes <file>.br and <file>.gz next to each compressible output (source maps aside): the server
 * hands them out by Accept-Encoding (apps/server/src/http/web.ts), so no request pays for compression.
 */
function precompress(): Plugin {
  return {
    name: 'sheaf-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? path.join(here, 'dist');
      await Promise.all(
        Object.values(bundle).map(async (output) => {
          if (!COMPRESSIBLE.test(output.fileName)) return;
          // The written file, not the bundle's copy: the source map comment is added on write.
          const file = path.join(outDir, output.fileName);
          const bytes = await readFile(file);
          if (bytes.length < MIN_COMPRESS_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
            gzipAsync(bytes, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

export default defineConfig({
  root: here,
  plugins: [react(), buildInfo(), precompress()],
  define: {
    __APP_VERSION__: JSON.stringify(version),
    __BUILD_ID__: JSON.stringify(buildId),
  },
  resolve: {
    alias: { '@sheaf/shared': path.resolve(here, '../../packages/shared/src/index.ts') },
  },
  server: {
    // `npm run dev -w @sheaf/web` next to `sheaf serve` on 3000.
    proxy: { '/v1': process.env.SHEAF_API ?? 'http://127.0.0.1:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // dist/.vite/manifest.json: which chunks each page needs (src/build-budget.test.ts weighs /login).
    manifest: true,
    // pdf.js alone is about 1 MB; it is loaded only by the editor.
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'pdfjs', test: /node_modules[\\/]pdfjs-dist/, priority: 30 },
            // One chunk per language (its namespaces together), fetched only when that language is used.
            { name: (id) => (LOCALE_FILE.exec(id) ? `texts-${LOCALE_FILE.exec(id)![1]}` : null), test: LOCALE_FILE, priority: 40, debugName: 'texts' },
            // MUI has no group of its own: each component goes with the screens that use it (the data
            // grid with the email report), so a public page loads only the few it shows.
            { name: 'vendor', test: /node_modules[\\/](react|react-dom|scheduler|react-router|@reduxjs|redux|react-redux|immer|reselect|@tanstack|i18next|react-i18next|zod)[\\/]/, priority: 10 },
          ],
        },
      },
    },
  },
});
