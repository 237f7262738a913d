/**
 * Runs the built app the way `npm start` serves it (`sheaf serve` on the embedded defaults, in its own
 * process, with a fresh data folder) and drives it with Debian's Chromium through playwright-core.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
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

/** The line `sheaf serve` prints once it listens, with the address it actually took. */
const RUNNING_AT = /Sheaf is running at (http:\/\/\S+)/;

/**
 * Starts `sheaf serve` with an empty data folder; resolves once it says where it listens and that
 * address answers. The server takes any free port itself (PORT=0): a port picked here and handed over
 * could be taken meanwhile by another file's server, whose answers this file would then get.
 */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sheaf-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'apps/server/bin/sheaf.mjs'), 'serve'], {
    cwd: ROOT,
    // The bounce listener takes any free port: test servers run side by side (its default 2525 is one port).
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', INBOUND_SMTP_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let started = false;
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) => {
      const why = `sheaf serve exited with ${code ?? signal}:\n${output}`;
      // After start no promise waits on it: say so, or a test would only see "connection refused".
      if (started) console.error(why);
      reject(new Error(why));
    }),
  );
  exited.catch(() => undefined);
  const ready = (async () => {
    // Until it has exited: then `exited` has already answered.
    for (let attempt = 0; attempt < 1200 && child.exitCode === null && child.signalCode === null; attempt++) {
      const url = RUNNING_AT.exec(output)?.[1];
      if (url && (await fetch(`${url}/v1/config`).then((response) => response.ok, () => false))) return url;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`sheaf serve did not answer:\n${output}`);
  })();
  const url = await Promise.race([ready, exited]);
  started = true;
  return {
    url,
    dataDir,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        started = false;
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

/**
 * A browser as a person set it up, who asks for reduced motion: the app then shows menus and dialogs
 * at once. On a busy machine a click aimed at a menu item still growing into place could land on the
 * backdrop and close the menu instead; accessibility.e2e checks the app honours the setting.
 */
export async function newContext(browser: Browser, options: { locale?: string } = {}): Promise<BrowserContext> {
  return browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 900 }, locale: options.locale ?? 'en-US', reducedMotion: 'reduce' });
}

/** Saves a full-page screenshot as e2e/screenshots/<name>.png for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
