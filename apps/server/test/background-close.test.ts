/**
 * Closing the server waits for the work its requests started and did not wait for (a template's
 * thumbnail): nothing writes into the data folder after close() has resolved, so the folder can be
 * removed at once (before, a late render wrote into a folder being removed: ENOTEMPTY).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TemplateDetail } from '@sheaf/shared';
import { startTestServer } from './harness.ts';
import { makePdf } from './library-support.ts';

describe('closing the server', () => {
  it('waits for a thumbnail being made, so the data folder can be removed right after', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-close-'));
    try {
      const server = await startTestServer({ database: 'pglite', config: { DATA_DIR: dataDir } });
      const owner = await server.signUp();
      const upload = await server.inject('POST', '/templates', { token: owner.token, file: { name: 'Letter.pdf', bytes: await makePdf({ pages: 3 }), type: 'application/pdf' } });
      expect(upload.status, JSON.stringify(upload.json)).toBe(201);
      const { id } = upload.json as TemplateDetail;
      await server.close();
      const files = await readdir(path.join(dataDir, 'files', 'templates', id));
      expect(files.filter((name) => /^thumbnail-.+\.png$/.test(name))).toHaveLength(1);
      await rm(dataDir, { recursive: true });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
