/**
 * `npx tsx login-bytes.ts`: what a first visit to /login transfers, measured in Debian's Chromium
 * against a real `sheaf serve` (the built web app, compressed as served): every response's body and
 * headers as they crossed the wire, fonts included, by type. The build-budget test
 * (apps/web/src/build-budget.test.ts) checks the same page from the build's manifest.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT, SHEAF, freePort } from './service-support.ts';
// npm start's own build helpers (a plain .mjs script).
import { buildWebApp, webBuildIsStale } from '../scripts/start.mjs';


export async function measureLoginBytes(): Promise<{ total: number; byType: Record<string, number>; requests: number }> {
  if (webBuildIsStale() && !buildWebApp()) throw new Error('the web app did not build');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-login-bytes-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const serve = spawn(process.execPath, [SHEAF, 'serve'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: url, LOG_LEVEL: 'silent', INBOUND_SMTP_PORT: 'off', SECRET_KEY: randomBytes(32).toString('base64url') },
    stdio: 'ignore',
  });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    for (let i = 0; ; i++) {
      const answer = await fetch(`${url}/readyz`).catch(() => undefined);
      if (answer?.ok) break;
      if (i > 600 || serve.exitCode !== null) throw new Error('sheaf serve did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const page = await browser.newPage({ locale: 'en-US' });
    const responses: Array<Promise<{ type: string; bytes: number }>> = [];
    page.on('requestfinished', (request) => {
      responses.push(request.sizes().then((sizes) => ({ type: request.resourceType(), bytes: sizes.responseBodySize + sizes.responseHeadersSize })));
    });
    await page.goto(`${url}/login`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: /sign in|log in/i }).first().waitFor();
    const sizes = await Promise.all(responses);
    const byType: Record<string, number> = {};
    for (const { type, bytes } of sizes) byType[type] = (byType[type] ?? 0) + bytes;
    return { total: sizes.reduce((sum, each) => sum + each.bytes, 0), byType, requests: sizes.length };
  } finally {
    await browser.close();
    serve.kill('SIGTERM');
    await new Promise((resolve) => serve.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { total, byType, requests } = await measureLoginBytes();
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log(`First visit to /login: ${kib(total)} in ${requests} requests (target <= 350 KiB)`);
  for (const [type, bytes] of Object.entries(byType).sort((a, b) => b[1] - a[1])) console.log(`  ${type}: ${kib(bytes)}`);
}
