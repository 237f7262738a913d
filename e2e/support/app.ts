/**
 * Runs the built app the way `npm start` serves it (`sheaf serve` on the embedded defaults, in its own
 * process, with a fresh data folder) and drives it with Debian's Chromium through playwright-core.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCREENSHOTS = path.join(ROOT, 'e2e/screenshots');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface RunningApp {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts `sheaf serve` on a free port with an empty data folder; resolves once /v1/config answers. */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sheaf-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'apps/server/bin/sheaf.mjs'), 'serve'], {
    cwd: ROOT,
    // The bounce listener takes any free port: test servers run side by side (its default 2525 is one port).
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'warn', INBOUND_SMTP_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`sheaf serve exited with ${code}:\n${output}`))));
  const ready = (async () => {
    for (let attempt = 0; attempt < 600; attempt++) {
      try {
        const response = await fetch(`${url}/v1/config`);
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`sheaf serve did not answer on ${url}:\n${output}`);
  })();
  await Promise.race([ready, exited]);
  return {
    url,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

export async function newContext(browser: Browser, options: { locale?: string } = {}): Promise<BrowserContext> {
  return browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 900 }, locale: options.locale ?? 'en-US' });
}

/** Saves a full-page screenshot as e2e/screenshots/<name>.png for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
