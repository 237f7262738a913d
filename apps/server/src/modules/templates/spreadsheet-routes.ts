/** /v1 routes of a template's spreadsheet. */
import type { FastifyInstance } from 'fastify';
import { MAX_UPLOAD_BYTES, routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { copySpreadsheet, deleteSpreadsheet, getSpreadsheet, uploadSpreadsheet } from './spreadsheet.ts';

export function registerTemplateSpreadsheetRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.getExcel, ({ user, params }) => getSpreadsheet(ctx, user.uid, params.id));
  handle(app, routes.uploadExcel, async ({ user, params, query, file }) =>
    uploadSpreadsheet(ctx, user.uid, params.id, await file(MAX_UPLOAD_BYTES, 'sheet/too-large'), query.headersRowNo));
  handle(app, routes.copyExcel, ({ user, params, body }) => copySpreadsheet(ctx, user.uid, params.id, body.sourceTemplateId));
  handle(app, routes.deleteExcel, async ({ user, params }) => {
    await deleteSpreadsheet(ctx, user.uid, params.id);
    return { ok: true as const };
  });
}
