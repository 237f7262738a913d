/**
 * The typed /v1 client. Every call is named by its key in the shared `routes` table, so paths,
 * payloads and responses are the server's own types. Behaviour of docs/web-app.md#talking-to-the-api:
 * - bearer token on private calls; an expired token is refreshed before the call, a 401 refreshes
 *   once (concurrent calls share one refresh) and retries; a failed refresh or a token for another
 *   audience ends the session;
 * - a primary and backup API host: the last working one is remembered, the other is tried on a
 *   network error;
 * - every call takes at least MIN_API_RESPONSE_MS from its start (the UI never flickers).
 */
import type { z } from 'zod';
import { MIN_API_RESPONSE_MS, routePath, routes, type RouteKey, type Routes } from '@sheaf/shared';
import { ApiError } from './apiError.ts';
import { browserStorage, createSessionStore, decodeToken, hasOurAudience, isExpired, type KeyValueStorage, type SessionStore } from './session.ts';
import { isAbortError, send, type FetchLike, type TransportRequest } from './transport.ts';
import { recentErrors } from './recentErrors.ts';

export { ApiError, isApiError } from './apiError.ts';

export const API_HOST_KEY = 'sheaf.apiHost';

type RouteOf<K extends RouteKey> = Routes[K];
type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
/**
 * `route()` infers a schema only where one is given; a part left out (or 'binary'/'multipart')
 * stays the bare z.ZodType. So "z.ZodType extends S" means: this route has no schema here.
 */
type Declared<S> = z.ZodType extends S ? never : S extends z.ZodType ? S : never;
type InputOf<S> = [Declared<S>] extends [never] ? never : z.input<Declared<S>>;

export interface CallOptions<K extends RouteKey> {
  params?: InputOf<RouteOf<K>['params']>;
  query?: InputOf<RouteOf<K>['query']>;
  body?: InputOf<Exclude<RouteOf<K>['body'], 'multipart'>>;
  /** Multipart upload (field "file"); the route's other fields go in `query`. */
  file?: File | Blob;
  /** Text fields of a multipart form (sent before the file), for routes that take a form (POST /support/requests). */
  fields?: Record<string, string>;
  signal?: AbortSignal;
  /** Upload progress from 0 to 1 (uses XMLHttpRequest in browsers). */
  onUploadProgress?: (fraction: number) => void;
}

type ResponseSchema<K extends RouteKey> = Exclude<RouteOf<K>['response'], 'binary'>;
/** The parsed JSON of the route's response schema, or a Blob for 'binary' routes. */
export type CallResult<K extends RouteKey> = [Declared<ResponseSchema<K>>] extends [never] ? Blob : z.output<Declared<ResponseSchema<K>>>;

export interface ApiClientOptions {
  /** Base hosts, primary first; '' is the page's own origin. '/v1' is added. */
  hosts: readonly string[];
  storage: KeyValueStorage;
  fetch: FetchLike;
  session?: SessionStore;
  minResponseMs?: number;
  /** Told of every failed call but cancelled ones (the recent errors a support request may carry). */
  onError?: (error: ApiError, key: RouteKey) => void;
}

export interface ApiClient {
  call<K extends RouteKey>(key: K, options?: CallOptions<K>): Promise<CallResult<K>>;
  blob<K extends RouteKey>(key: K, options?: Omit<CallOptions<K>, 'file' | 'onUploadProgress'>): Promise<Blob>;
  /**
   * A call whose answer is read as it arrives (the data check's NDJSON, features/dataCheck): the same
   * token, refresh, failover and errors as `call`; resolves with the Response as soon as its status is
   * a success, its body not read yet (the minimum time applies to failures only, as the server sends
   * a stream without holding it back).
   */
  stream<K extends RouteKey>(key: K, options?: Omit<CallOptions<K>, 'file' | 'onUploadProgress'>): Promise<Response>;
  /** An absolute URL on the current API host for a server-given path such as '/v1/files/..'. */
  href(path: string): string;
  readonly session: SessionStore;
  /** Signs out locally and tells the listeners (the app clears its caches and shows /login). */
  endSession(): void;
  onSessionEnd(listener: () => void): () => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function queryString(query: unknown): string {
  if (!query || typeof query !== 'object') return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query as Record<string, QueryValue>)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) value.forEach((item) => search.append(name, String(item)));
    else search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const hosts = (options.hosts.length ? options.hosts : ['']).map((host) => host.replace(/\/+$/, ''));
  const { storage } = options;
  const session = options.session ?? createSessionStore(storage);
  const minResponseMs = options.minResponseMs ?? MIN_API_RESPONSE_MS;
  const sessionEndListeners = new Set<() => void>();
  let refreshing: Promise<string> | null = null;

  function orderedHosts(): string[] {
    const remembered = storage.getItem(API_HOST_KEY);
    return remembered !== null && hosts.includes(remembered) ? [remembered, ...hosts.filter((host) => host !== remembered)] : hosts;
  }

  /** Tries each host in turn on network errors; remembers the one that answered. */
  async function sendWithFailover(build: (base: string) => TransportRequest, signal?: AbortSignal): Promise<Response> {
    let lastError: unknown;
    for (const host of orderedHosts()) {
      if (signal?.aborted) throw ApiError.cancelled();
      try {
        const response = await send(build(`${host}/v1`), options.fetch);
        if (hosts.length > 1 && storage.getItem(API_HOST_KEY) !== host) storage.setItem(API_HOST_KEY, host);
        return response;
      } catch (error) {
        if (isAbortError(error) || signal?.aborted) throw ApiError.cancelled();
        lastError = error;
      }
    }
    throw ApiError.network(lastError);
  }

  function endSession(): void {
    session.clear();
    sessionEndListeners.forEach((listener) => listener());
  }

  /** One refresh at a time: every caller waiting on an expired token shares it. */
  function refresh(): Promise<string> {
    refreshing ??= (async () => {
      const refreshToken = session.refreshToken();
      if (!refreshToken) throw ApiError.unauthenticated();
      const response = await sendWithFailover((base) => ({
        url: base + routes.token.path,
        method: routes.token.method,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: refreshToken }),
      }));
      if (!response.ok) throw ApiError.unauthenticated();
      const data = (await readJson(response)) as { id_token?: string; refresh_token?: string } | undefined;
      if (!data?.id_token || !data.refresh_token) throw ApiError.unauthenticated();
      session.set(data.id_token, data.refresh_token);
      return data.id_token;
    })()
      .catch((error: unknown) => {
        // A network failure keeps the session (the user may just be offline); anything else ends it.
        if (error instanceof ApiError && error.isNetwork) throw error;
        endSession();
        throw ApiError.unauthenticated();
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  /** The token to send: refreshed first when it has expired; a foreign token ends the session. */
  async function currentToken(): Promise<string> {
    const token = session.token();
    if (!token) {
      if (session.refreshToken()) return refresh();
      throw ApiError.unauthenticated();
    }
    const claims = decodeToken(token);
    if (!claims || !hasOurAudience(claims)) {
      endSession();
      throw ApiError.unauthenticated();
    }
    return isExpired(claims, Date.now()) ? refresh() : token;
  }

  async function perform<K extends RouteKey>(key: K, opts: CallOptions<K>): Promise<Response> {
    const def = routes[key];
    const path = routePath(def.path, (opts.params ?? {}) as Record<string, string>) + queryString(opts.query);
    const headers: Record<string, string> = { Accept: 'application/json' };
    let body: string | FormData | undefined;
    if (opts.file || opts.fields) {
      body = new FormData();
      for (const [name, value] of Object.entries(opts.fields ?? {})) body.append(name, value);
      if (opts.file) body.append('file', opts.file, opts.file instanceof File ? opts.file.name : 'file');
    } else if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const request = (token: string | null) => (base: string): TransportRequest => ({
      url: base + path,
      method: def.method,
      headers: token ? { ...headers, Authorization: `Bearer ${token}` } : headers,
      body,
      signal: opts.signal,
      onUploadProgress: opts.onUploadProgress,
    });

    if (def.access === 'public') return sendWithFailover(request(null), opts.signal);
    // Optional: a visitor calls as nobody; a signed-in user with their session.
    if (def.access === 'optional' && !session.token() && !session.refreshToken()) return sendWithFailover(request(null), opts.signal);
    const token = await currentToken();
    const response = await sendWithFailover(request(token), opts.signal);
    if (response.status !== 401) return response;
    // Another call may have refreshed meanwhile: use its token rather than refreshing twice.
    const latest = session.token();
    const fresh = latest && latest !== token ? latest : await refresh();
    const retried = await sendWithFailover(request(fresh), opts.signal);
    if (retried.status === 401) endSession();
    return retried;
  }

  /** `holdSuccess: false`: a success is handed over at once (a stream shows its first lines as they come; failures still wait). */
  async function run<K extends RouteKey, T>(key: K, opts: CallOptions<K>, read: (response: Response) => Promise<T>, holdSuccess = true): Promise<T> {
    const started = Date.now();
    const waitRest = async () => {
      const rest = minResponseMs - (Date.now() - started);
      if (rest > 0) await sleep(rest);
      if (opts.signal?.aborted) throw ApiError.cancelled();
    };
    let result: T;
    try {
      const response = await perform(key, opts);
      if (!response.ok) throw ApiError.fromResponse(response.status, await readJson(response), response.headers.get('x-request-id'));
      result = await read(response);
    } catch (error) {
      const apiError = error instanceof ApiError ? error
        : isAbortError(error) || opts.signal?.aborted ? ApiError.cancelled()
          : ApiError.network(error);
      if (!apiError.isCancelled) {
        options.onError?.(apiError, key);
        await waitRest();
      }
      throw apiError;
    }
    if (holdSuccess) await waitRest();
    return result;
  }

  return {
    session,
    endSession,
    onSessionEnd(listener) {
      sessionEndListeners.add(listener);
      return () => sessionEndListeners.delete(listener);
    },
    call(key, opts = {}) {
      const binary = routes[key].response === 'binary';
      return run(key, opts, async (response) => (binary ? response.blob() : readJson(response)) as Promise<never>);
    },
    blob(key, opts = {}) {
      return run(key, opts, (response) => response.blob());
    },
    stream(key, opts = {}) {
      return run(key, opts, async (response) => response, false);
    },
    href(path) {
      const host = orderedHosts()[0];
      if (/^https?:\/\//.test(path)) return path;
      if (host) return host + path;
      return typeof location !== 'undefined' ? new URL(path, location.origin).href : path;
    },
  };
}

const runtimeHosts = typeof window !== 'undefined' ? window.SHEAF_CONFIG?.apiHosts : undefined;

/** The browser's client: hosts from window.SHEAF_CONFIG (default: this origin), tokens in localStorage. */
export const api: ApiClient = createApiClient({
  hosts: runtimeHosts?.length ? runtimeHosts : [''],
  storage: browserStorage(),
  fetch: (url, init) => globalThis.fetch(url, init),
  // Kept for a support request the user may send (docs/support.md); nothing leaves without their consent.
  onError: (error, key) => recentErrors.addApiError(error, key),
});
// Another user may sign in on this tab next: the errors were the last user's.
api.onSessionEnd(() => recentErrors.clear());
