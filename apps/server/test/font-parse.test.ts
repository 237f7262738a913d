/**
 * An uploaded font is parsed in a child process with a deadline (modules/fonts/font-worker.ts): a font
 * whose shaping never ends is refused with font/timeout while the server goes on answering, and a
 * real font still uploads afterwards.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { fixture } from './library-support.ts';
import { withEndlessShaping } from './stalling-font.ts';

describe('font parse off the main thread', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer({ database: 'pglite' });
    token = (await server.signUp()).token;
  });
  afterAll(async () => {
    await server.close();
  });

  const uploadFont = (name: string, bytes: Uint8Array) => server.inject('POST', '/fonts', { token, file: { name, bytes, type: 'font/ttf' } });

  it('refuses a font whose parse runs past the deadline with font/timeout, answering other requests meanwhile', async () => {
    const serif = await fixture('cli/fonts/DejaVuSerif.ttf');
    const started = Date.now();
    let uploadTookMs: number | undefined;
    const upload = uploadFont('stall.ttf', withEndlessShaping(serif)).finally(() => {
      uploadTookMs = Date.now() - started;
    });

    // Poll the font list until the upload is answered, noting when each answer came while it was pending.
    const answeredWhilePending: number[] = [];
    await vi.waitFor(async () => {
      const list = await server.inject('GET', '/fonts', { token });
      if (uploadTookMs === undefined) {
        expect(list.status).toBe(200);
        answeredWhilePending.push(Date.now() - started);
      }
      expect(uploadTookMs).toBeDefined();
    }, { timeout: 45_000, interval: 200 });

    const refused = await upload;
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'font/timeout', message: 'The font took too long to read. It may be damaged.' });
    // Parsed on the event loop, the font would have stopped every answer from its first moments on.
    expect(Math.max(...answeredWhilePending)).toBeGreaterThan(uploadTookMs! / 2);

    const added = await uploadFont('DejaVuSerif.ttf', serif);
    expect(added.status, JSON.stringify(added.json)).toBe(201);
    expect(added.json).toEqual({ fonts: [{ name: 'DejaVu Serif', fileName: 'DejaVuSerif.ttf', size: serif.length }] });
  });
});
