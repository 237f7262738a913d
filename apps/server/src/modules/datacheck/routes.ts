/**
 * POST /v1/templates/:id/verifyExcelData/stream (docs/data-check.md#the-call). Registered with the
 * shared route table's handle() as a raw answer: everything that refuses the check is thrown before
 * the stream starts (a catalogue error as JSON, 400 check/too-large among them); then NDJSON,
 * uncompressed and unbuffered, without the API's minimum response time (a raw answer is not held back).
 */
import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { binary, handle } from '../../http/route.ts';
import { prepareDataCheck } from './service.ts';
import { checkLines } from './stream.ts';

export function registerDataCheckRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.verifyExcelData, async ({ params, body, principal, request, reply }) => {
    const prepared = await prepareDataCheck(ctx, principal, params.id, body);
    // A client that goes away stops the check: the response closes before it has finished.
    const stop = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) stop.abort();
    });
    const lines = Readable.from(checkLines(ctx, prepared, { signal: stop.signal }), { objectMode: false, highWaterMark: 64 * 1024 });
    lines.on('error', (error) => request.log.error({ err: error }, 'data check failed while streaming'));
    // Lines must reach the client as they are found: no proxy buffering (nginx) or transformation (compression).
    reply.header('X-Accel-Buffering', 'no');
    reply.header('X-Content-Type-Options', 'nosniff');
    return binary({ body: lines, contentType: 'application/x-ndjson; charset=utf-8', cacheControl: 'no-store, no-transform' });
  });
}
