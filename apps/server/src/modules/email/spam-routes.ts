/** /v1 route of the spam review: POST /templates/:id/calculateSpamScore. */
import type { FastifyInstance } from 'fastify';
import { routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { calculateSpamScore } from './spam-score.ts';

export function registerSpamRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.calculateSpamScore, ({ principal, params }) => calculateSpamScore(ctx, principal, params.id));
}
