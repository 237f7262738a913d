/**
 * Binds a shared route definition (packages/shared/src/api/routes.ts) to a handler. Validation of
 * params, query and body, authentication of private routes, and the shape of success responses all
 * happen here, so module routes stay one line per call.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { SheafError, type ErrorCode, type RouteDef } from '@sheaf/shared';
import type { AppContext } from '../context.ts';
import { principalOf, type Principal } from '../access/index.ts';
import { sendBinary, type BinaryResult } from './binary.ts';
import { readUploadedFile, type UploadedFile } from './upload.ts';

export { binary, type BinaryResult } from './binary.ts';
export type { UploadedFile } from './upload.ts';

// A route without a schema in a slot gets the unconstrained default z.ZodType there (see route() in
// shared); `z.ZodType extends S` detects that default, so such slots are typed `undefined`.
type Declared<S> = [NonNullable<S>] extends [z.ZodType] ? (z.ZodType extends NonNullable<S> ? never : NonNullable<S>) : never;
type Infer<S> = [Declared<S>] extends [never] ? undefined : z.infer<Declared<S>>;
type JsonBody<B> = Exclude<B, 'multipart' | undefined>;

export interface HandlerInput<Def extends RouteDef> {
  params: Infer<Def['params']>;
  query: Infer<Def['query']>;
  body: Infer<JsonBody<Def['body']>>;
  /** Who acts (resolved once from the bearer token); on public routes a placeholder without scopes. */
  principal: Principal;
  request: FastifyRequest;
  reply: FastifyReply;
  /**
   * The uploaded file of a multipart route (field "file"). Reading stops as soon as it exceeds
   * `maxBytes`, with `tooLargeCode` ({maxMb}) as the error (default 'template/too-large').
   */
  file(maxBytes: number, tooLargeCode?: ErrorCode): Promise<UploadedFile>;
}

type ResponseSchema<R> = Exclude<R, 'binary'>;
type Result<Def extends RouteDef> =
  z.ZodType extends ResponseSchema<Def['response']>
    ? BinaryResult
    : ResponseSchema<Def['response']> extends z.ZodType
      ? z.input<ResponseSchema<Def['response']>>
      : BinaryResult;

declare module 'fastify' {
  interface FastifyInstance {
    /** The application context, decorated by buildApp. */
    sheafContext?: AppContext;
    /** The principal a bearer token speaks for (http/principal.ts, decorated by buildApp). */
    sheafAuthenticate?: (token: string) => Promise<Principal>;
  }
  interface FastifyContextConfig {
    /** Set on routes answering raw bytes: they skip the minimum response delay. */
    sheafBinary?: boolean;
  }
}

/** Public routes: nobody, allowed nothing. */
const ANONYMOUS = principalOf({ actorId: '', auth: 'session', scopes: [], plan: 'Free', edition: 'web' });

/** Registers `handler` for the shared route `def` under /v1. */
export function handle<Def extends RouteDef>(app: FastifyInstance, def: Def, handler: (input: HandlerInput<Def>) => Promise<Result<Def>>): void {
  const isBinary = def.response === 'binary';
  const jsonBody = def.body && def.body !== 'multipart' ? def.body : undefined;
  const status = def.status ?? 200;
  app.route({
    method: def.method,
    url: `/v1${def.path}`,
    config: { sheafBinary: isBinary },
    schema: {
      summary: def.summary,
      tags: [def.path.split('/')[1] ?? 'meta'],
      ...(def.access === 'private' ? { security: [{ bearerAuth: [] }] } : def.access === 'optional' ? { security: [{ bearerAuth: [] }, {}] } : {}),
      ...(def.params ? { params: def.params } : {}),
      ...(def.query ? { querystring: def.query } : {}),
      ...(jsonBody ? { body: jsonBody } : {}),
      ...(def.body === 'multipart' ? { consumes: ['multipart/form-data'] } : {}),
      ...(isBinary || typeof def.response === 'string' ? {} : { response: { [status]: def.response } }),
    },
    handler: async (request, reply) => {
      const principal = def.access === 'private' || (def.access === 'optional' && request.headers.authorization)
        ? await authenticate(app, request)
        : ANONYMOUS;
      const input = {
        params: request.params,
        query: request.query,
        body: jsonBody ? request.body : undefined,
        principal,
        request,
        reply,
        file: (maxBytes: number, tooLargeCode: ErrorCode = 'template/too-large') => readUploadedFile(request, maxBytes, tooLargeCode),
      } as HandlerInput<Def>;
      const result = await handler(input);
      if (isBinary) return sendBinary(request, reply, result as BinaryResult);
      reply.code(status);
      return result;
    },
  });
}

async function authenticate(app: FastifyInstance, request: FastifyRequest): Promise<Principal> {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (!match) throw new SheafError('auth/unauthenticated');
  if (!app.sheafAuthenticate) throw new Error('handle(): the app has no sheafAuthenticate (use buildApp)');
  return app.sheafAuthenticate(match[1]!);
}
