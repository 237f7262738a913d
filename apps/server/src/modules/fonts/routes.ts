/** /v1 routes of the user's custom fonts. */
import type { FastifyInstance } from 'fastify';
import { MAX_UPLOAD_BYTES, routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { binary, handle } from '../../http/route.ts';
import { deleteFont, fontFile, listFonts, uploadFont } from './service.ts';

export function registerFontRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.listFonts, ({ user }) => listFonts(ctx, user.uid));
  handle(app, routes.uploadFont, async ({ user, file }) => uploadFont(ctx, user.uid, await file(MAX_UPLOAD_BYTES)));
  handle(app, routes.deleteFont, ({ user, params }) => deleteFont(ctx, user.uid, params.name));
  handle(app, routes.fontFile, async ({ user, params }) => {
    const font = await fontFile(ctx, user.uid, params.name);
    return binary({ body: font.bytes, contentType: font.contentType, fileName: font.fileName, size: font.bytes.length, cacheControl: 'private, no-cache' });
  });
}
