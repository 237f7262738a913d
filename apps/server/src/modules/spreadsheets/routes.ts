/** /v1 route of the list of spreadsheets to choose from (a template's own sheet: templates/spreadsheet-routes.ts). */
import type { FastifyInstance } from 'fastify';
import { routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { listChoices } from './service.ts';

export function registerSpreadsheetRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.listExcelChoices, async ({ principal }) => ({ spreadsheets: await listChoices(ctx, principal) }));
}
