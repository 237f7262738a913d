/** The licence calls: the account's licences, and activation by the desktop edition (docs/licences.md). */
import type { FastifyInstance } from 'fastify';
import { routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { activateLicence, listLicences } from './service.ts';

export function registerLicenceRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.listLicences, async ({ principal }) => listLicences(ctx, principal));
  handle(app, routes.activateLicence, async ({ body, request }) => activateLicence(ctx, body, request.ip));
}
