/** The merge calls of the shared contract (packages/shared/src/api/routes.ts), one line each. */
import type { FastifyInstance } from 'fastify';
import { routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { binary, handle } from '../../http/route.ts';
import * as merges from './service.ts';

export function registerMergeRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The library's home list shows each template with its merges: merges sits above templates, so it answers.
  handle(app, routes.listTemplates, async ({ user }) => ({ templates: await merges.listLibrary(ctx, user.uid) }));
  handle(app, routes.startMerge, async ({ params, body, user }) => merges.startMerge(ctx, user.uid, params.id, body));
  handle(app, routes.listMerges, async ({ params, user }) => ({ merges: await merges.listMerges(ctx, user.uid, params.id) }));
  handle(app, routes.getMerge, async ({ params, user }) => merges.getMerge(ctx, user.uid, params.id, params.mergeId));
  handle(app, routes.cancelMerge, async ({ params, user }) => merges.cancelMerge(ctx, user.uid, params.id, params.mergeId));
  handle(app, routes.deleteMergeFiles, async ({ params, user }) => merges.deleteMergeFiles(ctx, user.uid, params.id, params.mergeId));
  handle(app, routes.deleteMerge, async ({ params, user }) => {
    await merges.deleteMerge(ctx, user.uid, params.id, params.mergeId);
    return { ok: true as const };
  });
  handle(app, routes.downloadMerge, async ({ params }) => {
    const file = await merges.downloadMerge(ctx, params.token);
    return binary({ body: file.stream, size: file.size, contentType: file.contentType, fileName: file.fileName, cacheControl: 'private, no-store' });
  });
}
