// @vitest-environment node
/**
 * What a first visit to a page transfers, from the build's manifest (dist/.vite/manifest.json) and
 * the brotli files next to each asset: index.html, the entry chunk and everything it imports
 * statically, the page's own lazy chunk with its static imports, their CSS, and the English texts.
 * Files under 1 KiB have no .br (they go out as they are) and count at their size. Web fonts are
 * not in the manifest (the CSS asks for them) and are left out. The vitest global setup rebuilds
 * apps/web/dist when the sources changed, so this weighs the current code.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const KiB = 1024;
/** Compressed bytes a first visit may transfer, per page (issue 10: /login at most 350 KiB). */
const BUDGETS: { page: string; source: string; budget: number }[] = [
  { page: '/login', source: 'src/features/auth/LoginPage.tsx', budget: 350 * KiB },
  { page: '/register', source: 'src/features/auth/RegisterPage.tsx', budget: 350 * KiB },
  { page: '/resetPassword', source: 'src/features/auth/ResetPasswordPage.tsx', budget: 350 * KiB },
];

interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const dist = fileURLToPath(new URL('../dist', import.meta.url));
const manifestFile = path.join(dist, '.vite/manifest.json');

/** Bytes on the wire for one built file: its .br when the build made one. */
function transferred(file: string): number {
  const compressed = path.join(dist, `${file}.br`);
  return statSync(existsSync(compressed) ? compressed : path.join(dist, file)).size;
}

/** The files a first visit to a page fetches, by manifest key: statically imported chunks and CSS. */
function firstVisitFiles(manifest: Manifest, keys: string[]): Set<string> {
  const files = new Set<string>(['index.html']);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return files;
}

describe('first-visit budget', () => {
  it('the build wrote its manifest and compressed files', () => {
    expect(existsSync(manifestFile), `${manifestFile} is missing: build the web app (npm run build -w @sheaf/web)`).toBe(true);
    expect(existsSync(path.join(dist, 'index.html.br'))).toBe(true);
  });

  for (const { page, source, budget } of BUDGETS) {
    it(`${page} transfers at most ${budget / KiB} KiB compressed`, () => {
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
      const entry = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
      const texts = Object.keys(manifest).filter((key) => manifest[key]!.name === 'texts-en');
      expect(entry).toEqual(['index.html']);
      expect(texts, 'the English texts are a chunk of their own').toHaveLength(1);
      const files = firstVisitFiles(manifest, [...entry, source, ...texts]);
      // Other languages' texts, the editor (pdf.js) and the data grid never load on a public page.
      const names = [...files].join(' ');
      expect(names).not.toMatch(/texts-(de|fr|es|zh)|pdfjs|pdf\.worker|MessagesGrid|WizardPage/);
      const sizes = [...files].map((file) => [file, transferred(file)] as const);
      const total = sizes.reduce((sum, [, size]) => sum + size, 0);
      const report = sizes.map(([file, size]) => `${file} ${(size / KiB).toFixed(1)} KiB`).join('\n');
      console.info(`${page}: ${(total / KiB).toFixed(1)} KiB in ${files.size} files\n${report}`);
      expect(total, `${page} transfers ${(total / KiB).toFixed(1)} KiB:\n${report}`).toBeLessThanOrEqual(budget);
    });
  }
});
