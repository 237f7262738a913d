/**
 * The send workload: N messages, each with its row's ~280 KB PDF attached, to a local SMTP sink
 * (smtp-server in its own process), by nodemailer's pool of 8 connections (the baseline) and by
 * Sheaf's sending path with 8 connections. Each candidate runs in its own process against a fresh
 * sink; a run counts only if the sink received every message.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareSendInputs } from './send/inputs.ts';
import type { BenchResult } from './types.ts';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const CHILD_TIMEOUT_MS = 15 * 60 * 1000;
const CANDIDATES = [
  { tool: 'nodemailer pool (8)', script: 'send/nodemailer.ts' },
  { tool: 'sheaf', script: 'send/sheaf.ts' },
] as const;

function lines(child: ChildProcess): AsyncGenerator<string> {
  const stream = child.stdout!.setEncoding('utf8');
  return (async function* () {
    let buffered = '';
    for await (const text of stream) {
      buffered += text;
      let at: number;
      while ((at = buffered.indexOf('\n')) >= 0) {
        yield buffered.slice(0, at);
        buffered = buffered.slice(at + 1);
      }
    }
  })();
}

async function startSink(): Promise<{ port: number; stop(): Promise<{ received: number; bytes: number }> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'send/sink.ts'], { cwd: BENCH_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
  const output = lines(child);
  const first = await output.next();
  const { port } = JSON.parse(String(first.value)) as { port: number };
  return {
    port,
    async stop() {
      child.kill('SIGTERM');
      const last = await output.next();
      return JSON.parse(String(last.value)) as { received: number; bytes: number };
    },
  };
}

function runCandidate(script: string, args: string[]): Promise<BenchResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: BENCH_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`${script} exited with ${signal ?? code}`));
      try {
        resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '') as BenchResult);
      } catch {
        reject(new Error(`${script} printed no result`));
      }
    });
  });
}

export async function benchSend(count: number): Promise<BenchResult[]> {
  const inputs = await prepareSendInputs(count);
  const results: BenchResult[] = [];
  for (const candidate of CANDIDATES) {
    const sink = await startSink();
    let result: BenchResult;
    try {
      result = await runCandidate(candidate.script, [String(sink.port), String(count), inputs.zipPath, inputs.indexPath]);
    } catch (error) {
      result = { workload: 'send', tool: candidate.tool, units: 0, unitName: 'msgs', seconds: 0, peakRssMb: 0, note: `failed: ${(error as Error).message}` };
    }
    const { received } = await sink.stop();
    if (result.units > 0 && received !== count) result = { ...result, note: `INVALID: the sink received ${received} of ${count} messages` };
    else if (result.units > 0) result = { ...result, note: [`${Math.round(inputs.documentBytes / 1024)} KB PDF each`, result.note].filter(Boolean).join('; ') };
    results.push(result);
  }
  return results;
}

// `npx tsx send.ts [count]` runs this workload alone.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const result of await benchSend(Number(process.argv[2] ?? 2000))) console.log(JSON.stringify(result));
}
