/**
 * A redis-server of the test's own on a free port (no persistence, a temporary folder), so tests do
 * not share state with each other or with the machine's Redis. stop() kills it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './free-port.ts';

export interface TestRedis {
  url: string;
  port: number;
  /** A plain client for the test's own looks and settings (closed by stop()). */
  client: Redis;
  stop(): Promise<void>;
}


export async function startRedis(extraArgs: string[] = []): Promise<TestRedis> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sheaf-redis-'));
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 50 });
  client.on('error', () => undefined); // refused until the server listens: retried below
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await client.connect();
      await client.ping();
      break;
    } catch (error) {
      client.disconnect();
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start: ${(error as Error).message}\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    client,
    async stop() {
      client.disconnect();
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
