/**
 * Sends one HTTP request and answers with a fetch Response. Uploads that report progress go through
 * XMLHttpRequest (fetch has no upload progress); its result is wrapped in a Response so the client
 * handles both the same way. A network failure rejects with a TypeError and an abort with an
 * AbortError, as fetch does.
 */
export interface TransportRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | FormData;
  signal?: AbortSignal;
  onUploadProgress?: (fraction: number) => void;
}

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export function send(request: TransportRequest, fetchImpl: FetchLike): Promise<Response> {
  if (request.onUploadProgress && typeof XMLHttpRequest !== 'undefined') return sendWithProgress(request, request.onUploadProgress);
  return fetchImpl(request.url, { method: request.method, headers: request.headers, body: request.body, signal: request.signal });
}

function sendWithProgress(request: TransportRequest, onProgress: (fraction: number) => void): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, request.url);
    xhr.responseType = 'arraybuffer';
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      onProgress(1);
      const headers = new Headers();
      for (const line of xhr.getAllResponseHeaders().trim().split(/[\r\n]+/)) {
        const at = line.indexOf(':');
        if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
      }
      // Response() refuses a body on 204/304.
      const body = xhr.status === 204 || xhr.status === 304 ? null : (xhr.response as ArrayBuffer);
      resolve(new Response(body, { status: xhr.status, headers }));
    };
    xhr.onerror = () => reject(new TypeError('Network request failed'));
    xhr.ontimeout = () => reject(new TypeError('Network request timed out'));
    xhr.onabort = () => reject(new DOMException('The request was aborted', 'AbortError'));
    if (request.signal) {
      if (request.signal.aborted) return reject(new DOMException('The request was aborted', 'AbortError'));
      request.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(request.body ?? null);
  });
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
