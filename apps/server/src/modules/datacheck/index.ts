/**
 * The data check's public surface (docs/data-check.md): the streamed check of a merge request's rows
 * against its template, settings and email, with the optional AI review (./ai).
 */
export { prepareDataCheck, type PreparedDataCheck } from './service.ts';
export { checkLines } from './stream.ts';
export { registerDataCheckRoutes } from './routes.ts';
// The optional AI review (./ai, docs/data-check.md#ai-review): the stream runs it; tests reach it here.
export { aiReview, aiReviewConfigured, type AiReviewInput, type AiReviewRow, type AiReviewSummary } from './ai/index.ts';
