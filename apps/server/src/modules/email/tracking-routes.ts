/** The public tracking URLs (outside /v1 and the shared contract): GET /t/o/<id>/<sig>.gif and /t/c/<id>/<sig>?u=<target>. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { recordClick, recordOpen } from './tracking.ts';
import { PIXEL_GIF, TRACKING_PREFIX, isRedirectTarget, redirectLocation } from './tracking-links.ts';

export function registerTrackingRoutes(app: FastifyInstance, ctx: AppContext): void {
  const schema = { hide: true };
  app.get<{ Params: { id: string; signature: string } }>(`${TRACKING_PREFIX}o/:id/:signature`, { schema }, async (request, reply) => {
    const signature = request.params.signature.replace(/\.gif$/, '');
    // The image is answered either way (a mail client shows no broken image); only genuine opens count.
    await recordOpen(ctx, request.params.id, signature).catch((error: unknown) => request.log.warn({ err: error }, 'open not recorded'));
    return reply.code(200).header('Cache-Control', 'no-store, private').type('image/gif').send(PIXEL_GIF);
  });
  app.get<{ Params: { id: string; signature: string }; Querystring: { u?: string } }>(`${TRACKING_PREFIX}c/:id/:signature`, { schema }, async (request, reply) => {
    const requested = String(request.query.u ?? '');
    // A target no redirect may lead to (a line break would split the header) is a bad request, signed or not.
    if (!isRedirectTarget(requested)) return reply.code(400).type('text/plain; charset=utf-8').send('This link is not valid.');
    const target = await recordClick(ctx, request.params.id, request.params.signature, requested);
    // A forged link redirects nowhere: no open redirect.
    if (!target) return reply.code(404).type('text/plain; charset=utf-8').send('This link is not valid.');
    return reply.code(302).header('Cache-Control', 'no-store, private').header('Location', redirectLocation(target)).send();
  });
}
