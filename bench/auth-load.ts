/**
 * `npx tsx auth-load.ts [--connections 50] [--seconds 20] [--warmup 3]`: the API under many clients
 * at once, on a real `sheaf serve` (embedded defaults: PGlite, local files) with MIN_RESPONSE_MS=0.
 *
 * Three workloads, one after the other, each with N keep-alive connections sending back to back for a
 * fixed time (after an untimed warm-up):
 *   GET /users/me       each connection signed in as a user of its own (Bearer token)
 *   POST /users/login   the right password, each connection its own user from its own client address
 *                       (TRUST_PROXY with X-Forwarded-For, as behind a proxy), so no sign-in limit holds
 *                       it: a right password hands its attempt back (docs/accounts.md#rate-limits)
 *   login beside load   one connection signing in, the others on GET /users/me: what one user's
 *                       sign-in costs while the service is busy (only the sign-ins are counted)
 * For each: requests per second, p50 and p99 latency, errors (non-2xx or failed requests), the peak
 * RSS of the server's process tree, and the server's CPU time per request (what a shared, loaded
 * machine changes least). Nothing is asserted: a measurement, not a test.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { processTreeCpuSeconds, trackPeakRss } from './process-rss.ts';
import { api, freePort, startSheaf, stopAll, waitUntilAnswering } from './service-support.ts';

const PASSWORD = 'Bench-passw0rd!-auth';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
  },
});
const CONNECTIONS = Number(values.connections);
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);

interface Request {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface Outcome {
  workload: string;
  requests: number;
  errors: number;
  seconds: number;
  p50: number;
  p99: number;
  peakRssMb: number;
  /** The server's CPU time (its process tree) per request answered in the measured window (of every connection). */
  cpuMsPerRequest: number;
  loadAverage: number;
}

/** One request on the connection's own agent; resolves with the status (0 for a failed request). */
function send(agent: http.Agent, port: number, request: Request): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, agent, method: request.method, path: `/v1${request.path}`, headers: request.headers }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
      res.once('error', () => resolve(0));
    });
    req.once('error', () => resolve(0));
    req.end(request.body);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/** `CONNECTIONS` loops, each on one keep-alive socket, for warm-up + SECONDS; latencies counted after the warm-up. */
async function load(workload: string, port: number, pid: number, requestOf: (connection: number) => Request, measured = (_connection: number) => true): Promise<Outcome> {
  const latencies: number[] = [];
  let errors = 0;
  /** Every request answered in the measured window, counted or not (for the CPU per request). */
  let answered = 0;
  const peakRss = trackPeakRss(pid, 200);
  let peakRssMb = 0;
  let cpuAtStart = 0;
  const cpuTimer = setTimeout(() => (cpuAtStart = processTreeCpuSeconds(pid)), WARMUP * 1000);
  const start = performance.now();
  const measureFrom = start + WARMUP * 1000;
  const end = measureFrom + SECONDS * 1000;
  try {
    await Promise.all(Array.from({ length: CONNECTIONS }, async (_, connection) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const request = requestOf(connection);
      try {
        for (;;) {
          const sent = performance.now();
          if (sent >= end) return;
          const status = await send(agent, port, request);
          if (sent < measureFrom) continue;
          answered++;
          if (!measured(connection)) continue;
          latencies.push(performance.now() - sent);
          if (status < 200 || status >= 300) errors++;
        }
      } finally {
        agent.destroy();
      }
    }));
  } finally {
    clearTimeout(cpuTimer);
    peakRssMb = peakRss();
  }
  const cpuSeconds = processTreeCpuSeconds(pid) - cpuAtStart;
  latencies.sort((a, b) => a - b);
  return {
    workload, requests: latencies.length, errors, seconds: SECONDS, p50: percentile(latencies, 50), p99: percentile(latencies, 99),
    peakRssMb, cpuMsPerRequest: answered ? (cpuSeconds * 1000) / answered : 0, loadAverage: loadavg()[0]!,
  };
}

async function main(): Promise<Outcome[]> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-auth-load-'));
  const port = await freePort();
  const serve = startSheaf('sheaf serve', ['serve'], {
    DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, MIN_RESPONSE_MS: '0', LOG_LEVEL: 'silent',
    INBOUND_SMTP_PORT: 'off', SECRET_KEY: randomBytes(32).toString('base64url'), TRUST_PROXY: 'true',
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitUntilAnswering(url, serve);
    const users: Array<{ email: string; token: string }> = [];
    // Signed up a few at a time: each sign-up hashes a password.
    for (let first = 0; first < CONNECTIONS; first += 5) {
      users.push(...(await Promise.all(Array.from({ length: Math.min(5, CONNECTIONS - first) }, async (_, i) => {
        const email = `auth-${first + i}-${randomBytes(3).toString('hex')}@example.com`;
        const registered = await api(url, 'POST', '/users/register', undefined, { firstName: 'Load', lastName: String(first + i), email, password: PASSWORD, confirmPassword: PASSWORD });
        return { email, token: registered.token as string };
      }))));
    }
    const pid = serve.child.pid!;
    const me = await load('GET /users/me', port, pid, (connection) => ({ method: 'GET', path: '/users/me', headers: { authorization: `Bearer ${users[connection]!.token}` } }));
    const loginRequest = (connection: number): Request => ({
      method: 'POST',
      path: '/users/login',
      // TEST-NET-3 addresses, one per connection: each user signs in from a client of its own.
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${connection + 1}` },
      body: JSON.stringify({ email: users[connection]!.email, password: PASSWORD }),
    });
    const login = await load('POST /users/login (right password)', port, pid, loginRequest);
    // The figure: one user signing in while everyone else loads pages (connection 0 signs in).
    const meRequest = (connection: number): Request => ({ method: 'GET', path: '/users/me', headers: { authorization: `Bearer ${users[connection]!.token}` } });
    const beside = await load(`POST /users/login, 1 connection beside ${CONNECTIONS - 1} on GET /users/me`, port, pid, (connection) => (connection === 0 ? loginRequest(0) : meRequest(connection)), (connection) => connection === 0);
    return [me, login, beside];
  } finally {
    await stopAll([serve]);
    await rm(dataDir, { recursive: true, force: true });
  }
}

const outcomes = await main();
console.log(`\n${CONNECTIONS} keep-alive connections, ${SECONDS} s each after ${WARMUP} s of warm-up, sheaf serve (embedded defaults), MIN_RESPONSE_MS=0\n`);
console.log('| workload | requests | req/s | p50 ms | p99 ms | errors | peak RSS MB (process tree) | server CPU ms/request | load average |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const outcome of outcomes) {
  const cells = [outcome.workload, outcome.requests, (outcome.requests / outcome.seconds).toFixed(0), outcome.p50.toFixed(1), outcome.p99.toFixed(1), outcome.errors, outcome.peakRssMb, outcome.cpuMsPerRequest.toFixed(1), outcome.loadAverage.toFixed(1)];
  console.log(`| ${cells.join(' | ')} |`);
}
