import type { z } from 'zod';

/**
 * One HTTP call of the public contract. The server registers a handler per route and validates with
 * these schemas; the web client and the CLI call routes by the same objects, so the two can never
 * disagree about a path, a payload or a response. Paths are relative to /v1 and use :param segments.
 */
export interface RouteDef<
  Params extends z.ZodType = z.ZodType,
  Query extends z.ZodType = z.ZodType,
  Body extends z.ZodType = z.ZodType,
  Response extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  /**
   * public: no token; private: a valid access token (the request runs as that user); optional: a token
   * when the caller has one (a visitor may call it too, as nobody).
   */
  access: 'public' | 'private' | 'optional';
  summary: string;
  params?: Params;
  query?: Query;
  /** 'multipart': a file upload (field "file"), with the other fields of `query`. */
  body?: Body | 'multipart';
  /** 'binary': raw bytes (a PDF, a ZIP, an image) with Content-Type and Content-Disposition. */
  response: Response | 'binary';
  /** HTTP status of a success (default 200). */
  status?: number;
}

export function route<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  def: RouteDef<P, Q, B, R>,
): RouteDef<P, Q, B, R> {
  return def;
}

/** Fills :param segments: routePath('/templates/:id', { id: 'abc' }) -> '/templates/abc'. */
export function routePath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:(\w+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`missing path parameter ${key} for ${path}`);
    return encodeURIComponent(value);
  });
}
