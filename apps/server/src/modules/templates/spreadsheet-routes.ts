/** /v1 routes of a template's spreadsheet. */
import type { FastifyInstance } from 'fastify';
import { MAX_UPLOAD_BYTES, routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { copySpreadsheet, deleteSpreadsheet, getSpreadsheet, uploadSpreadsheet } from './spreadsheet.ts';

export function registerTemplateSpreadsheetRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.getExcel, ({ principal, params }) => getSpreadsheet(ctx, principal, params.id));
  handle(app, routes.uploadExcel, async ({ principal, params, query, file }) =>
    uploadSpreadsheet(ctx, principal, params.id, await file(MAX_UPLOAD_BYTES, 'sheet/too-large'), query.headersRowNo));
  handle(app, routes.copyExcel, ({ principal, params, body }) => copySpreadsheet(ctx, principal, params.id, body.sourceTemplateId));
  handle(app, routes.deleteExcel, async ({ principal, params }) => {
    await deleteSpreadsheet(ctx, principal, params.id);
    return { ok: true as const };
  });
}
