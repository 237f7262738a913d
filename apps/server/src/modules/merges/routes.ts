/** The merge calls of the shared contract (packages/shared/src/api/routes.ts), one line each. */
import type { FastifyInstance } from 'fastify';
import { routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { binary, handle } from '../../http/route.ts';
import { contentDisposition } from '../../http/binary.ts';
import * as merges from './service.ts';

export function registerMergeRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The library's home list shows each template with its merges: merges sits above templates, so it answers.
  handle(app, routes.listTemplates, async ({ principal }) => ({ templates: await merges.listLibrary(ctx, principal) }));
  handle(app, routes.startMerge, async ({ params, body, principal }) => merges.startMerge(ctx, principal, params.id, body));
  handle(app, routes.listMerges, async ({ params, principal }) => ({ merges: await merges.listMerges(ctx, principal, params.id) }));
  handle(app, routes.getMerge, async ({ params, principal }) => merges.getMerge(ctx, principal, params.id, params.mergeId));
  handle(app, routes.cancelMerge, async ({ params, principal }) => merges.cancelMerge(ctx, principal, params.id, params.mergeId));
  handle(app, routes.deleteMergeFiles, async ({ params, principal }) => merges.deleteMergeFiles(ctx, principal, params.id, params.mergeId));
  handle(app, routes.deleteMerge, async ({ params, principal }) => {
    await merges.deleteMerge(ctx, principal, params.id, params.mergeId);
    return { ok: true as const };
  });
  handle(app, routes.downloadMerge, async ({ params }) => {
    const file = await merges.downloadMerge(ctx, params.token, contentDisposition);
    if ('url' in file) return binary({ body: new Uint8Array(0), contentType: file.contentType, redirectTo: file.url, cacheControl: 'private, no-store' });
    return binary({ body: file.stream, size: file.size, contentType: file.contentType, fileName: file.fileName, cacheControl: 'private, no-store' });
  });
}
