/** /v1 routes of the user's custom fonts. */
import type { FastifyInstance } from 'fastify';
import { MAX_FONT_BYTES, routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { binary, handle } from '../../http/route.ts';
import { deleteFont, fontFile, listFonts, uploadFont } from './service.ts';

export function registerFontRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.listFonts, ({ principal }) => listFonts(ctx, principal));
  handle(app, routes.uploadFont, async ({ principal, file }) => uploadFont(ctx, principal, await file(MAX_FONT_BYTES, 'font/too-large')));
  handle(app, routes.deleteFont, ({ principal, params }) => deleteFont(ctx, principal, params.name));
  handle(app, routes.fontFile, async ({ principal, params }) => {
    const font = await fontFile(ctx, principal, params.name);
    return binary({ body: font.bytes, contentType: font.contentType, fileName: font.fileName, size: font.bytes.length, cacheControl: 'private, no-cache' });
  });
}
