/**
 * A stand-in for an OpenAI-compatible API in tests: a real HTTP server on a free port that the real
 * `openai` client reaches through LLM_BASE_URL (`standin.baseURL`, ending in /v1). It answers
 * POST /v1/chat/completions as the API does (a chat.completion object, OpenAI's error bodies), with
 * deterministic JSON from rules of its own (below) rather than a model, and records every request
 * as it arrived (headers, raw body, the parsed payload the review sent).
 *
 *   const standin = await startOpenAiStandin({ apiKey: 'sk-test-...' });
 *   const config = loadConfig({ ..., LLM_BASE_URL: standin.baseURL, LLM_MODEL: 'standin-1', LLM_API_KEY: 'sk-test-...' });
 *   standin.fault({ kind: 'status', status: 500 });   // the next request fails
 *   standin.requests                                   // what reached it
 *
 * Its rules, applied to the review's payload ({ columns: [{ name, kind, values: [{ id, value }] }] }):
 * - misplaced: a value whose own kind (a city of CITIES: place; a first name of FIRST_NAMES followed by
 *   a surname: person; a house number and words: address; a legal form: company) is not its column's;
 * - variants: values of one column without digits that are equal once accents, case and punctuation are
 *   gone, or one letter apart when six letters or longer.
 * Faults, each for one request in the order queued: none (pass), an HTTP status (the body echoes the bearer it
 * was given, as some providers' error messages do, so a logged message would leak it), a request left
 * unanswered (hang), a reply whose content is given text, or a given answer object.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCompletion {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The Authorization header as received, if any. */
  authorization: string | undefined;
  /** The request body as received. */
  raw: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** The last user message, parsed (what the review asked about); undefined when not JSON. */
  payload: StandinPayload | undefined;
  status: number;
}

export interface StandinPayload {
  columns: Array<{ name: string; kind: string; values: Array<{ id: number; value: string }> }>;
}

export type StandinFault =
  /** Answered by the rules, as without a fault (to fault a later request). */
  | { kind: 'pass' }
  | { kind: 'status'; status: number }
  | { kind: 'hang' }
  | { kind: 'content'; content: string }
  | { kind: 'answer'; answer: unknown };

export const FIRST_NAMES = new Set(['Anna', 'John', 'Maria', 'Peter', 'Sophie', 'Lukas', 'Emma', 'James', 'Laura', 'Paul', 'Clara', 'David', 'Julia', 'Thomas', 'Lea', 'Oliver']);
export const CITIES = new Set(['Paris', 'Berlin', 'London', 'Madrid', 'Lyon', 'Hamburg', 'Zürich', 'Zurich', 'Vienna', 'Rome', 'Munich', 'Leeds']);
const LEGAL_FORM = /\b(ltd|gmbh|inc|llc|sa|ag|plc|bv)\.?$/i;

function kindOf(value: string): string | null {
  if (CITIES.has(value)) return 'place';
  if (LEGAL_FORM.test(value)) return 'company';
  if (/^\d+[a-z]?\s+\p{L}/iu.test(value) || /\p{L}{3,}\s+\d+$/u.test(value)) return 'address';
  const words = value.split(/\s+/);
  if (words.length >= 2 && words.length <= 3 && FIRST_NAMES.has(words[0]) && !/\d/.test(value)) return 'person';
  return null;
}

const fold = (value: string) => value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

function oneApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  // Substitution, insertion or deletion at i, the rest equal.
  return a.slice(i + 1) === b.slice(i + 1) || a.slice(i) === b.slice(i + 1) || a.slice(i + 1) === b.slice(i);
}

/** The stand-in's own answer to a payload. */
export function standinAnswer(payload: StandinPayload): { misplaced: Array<{ id: number; looks_like: string }>; variants: Array<{ ids: number[] }> } {
  const misplaced: Array<{ id: number; looks_like: string }> = [];
  const variants: Array<{ ids: number[] }> = [];
  for (const column of payload.columns) {
    for (const { id, value } of column.values) {
      const kind = kindOf(value);
      if (kind && kind !== column.kind) misplaced.push({ id, looks_like: kind });
    }
    const groups: Array<Array<{ id: number; key: string }>> = [];
    // Numbers tell things apart (12 and 13 Baker Street are two houses): only words are compared.
    for (const { id, value } of column.values.filter((entry) => !/\d/.test(entry.value))) {
      const key = fold(value);
      const group = groups.find((members) => members.some((member) => member.key === key || (Math.min(member.key.length, key.length) >= 6 && oneApart(member.key, key))));
      if (group) group.push({ id, key });
      else groups.push([{ id, key }]);
    }
    for (const group of groups) if (group.length > 1) variants.push({ ids: group.map((member) => member.id) });
  }
  return { misplaced, variants };
}

function completion(model: string, content: string) {
  return {
    id: `chatcmpl-standin-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

export type OpenAiStandin = Awaited<ReturnType<typeof startOpenAiStandin>>;

export async function startOpenAiStandin(options: { apiKey?: string } = {}) {
  const requests: RecordedCompletion[] = [];
  const faults: StandinFault[] = [];
  const waiting: Array<(request: RecordedCompletion) => void> = [];
  const hanging = new Set<ServerResponse>();

  function send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_standin_${requests.length}` });
    res.end(JSON.stringify(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const record: RecordedCompletion = {
      method: req.method ?? '',
      path: (req.url ?? '').split('?')[0],
      headers: req.headers,
      authorization: req.headers.authorization,
      raw,
      body: undefined,
      payload: undefined,
      status: 0,
    };
    requests.push(record);
    const answer = (status: number, body: unknown) => {
      record.status = status;
      send(res, status, body);
    };
    for (const resolve of waiting.splice(0)) resolve(record);

    if (record.method !== 'POST' || record.path !== '/v1/chat/completions') {
      answer(404, { error: { message: `Unknown request URL: ${record.method} ${record.path}`, type: 'invalid_request_error', param: null, code: 'unknown_url' } });
      return;
    }
    if (options.apiKey !== undefined && record.authorization !== `Bearer ${options.apiKey}`) {
      const presented = record.authorization?.replace(/^Bearer /, '') ?? '';
      answer(401, { error: { message: `Incorrect API key provided: ${presented}.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
      return;
    }
    try {
      record.body = JSON.parse(raw);
    } catch {
      answer(400, { error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error', param: null, code: null } });
      return;
    }
    const body = record.body as { model?: unknown; messages?: Array<{ role: string; content: unknown }> };
    if (typeof body.model !== 'string' || !Array.isArray(body.messages)) {
      answer(400, { error: { message: 'model and messages are required.', type: 'invalid_request_error', param: null, code: null } });
      return;
    }
    const user = body.messages.filter((message) => message.role === 'user').at(-1);
    try {
      record.payload = typeof user?.content === 'string' ? (JSON.parse(user.content) as StandinPayload) : undefined;
    } catch {
      record.payload = undefined;
    }

    const fault = faults.shift();
    if (fault?.kind === 'status') {
      answer(fault.status, { error: { message: `The server had an error processing your request (credentials ${record.authorization ?? 'none'}).`, type: 'server_error', param: null, code: null } });
      return;
    }
    if (fault?.kind === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (fault?.kind === 'content') {
      answer(200, completion(body.model, fault.content));
      return;
    }
    if (fault?.kind === 'answer') {
      answer(200, completion(body.model, JSON.stringify(fault.answer)));
      return;
    }
    if (!record.payload || !Array.isArray(record.payload.columns)) {
      answer(200, completion(body.model, JSON.stringify({ misplaced: [], variants: [] })));
      return;
    }
    answer(200, completion(body.model, JSON.stringify(standinAnswer(record.payload))));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { error: { message: String(error), type: 'server_error' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    /** What LLM_BASE_URL is set to (the client adds /chat/completions). */
    baseURL: `${origin}/v1`,
    requests,
    /** Queues faults for the next requests, one each, in order. */
    fault(...next: StandinFault[]): void {
      faults.push(...next);
    },
    /** Forgets the requests and the faults not yet used (between tests). */
    reset(): void {
      requests.length = 0;
      faults.length = 0;
    },
    /** Resolves with the next request to arrive. */
    nextRequest(): Promise<RecordedCompletion> {
      return new Promise((resolve) => waiting.push(resolve));
    },
    /** Every value sent, over all requests, as [column, value]. */
    sentValues(): Array<[string, string]> {
      return requests.flatMap((request) => request.payload?.columns.flatMap((column) => column.values.map(({ value }) => [column.name, value] as [string, string])) ?? []);
    },
    async close(): Promise<void> {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
