/**
 * The support module's public surface: support requests and suggestions from /help and the user menu,
 * stored, mailed to the operator (SUPPORT_EMAIL) and read with `sheaf support` (docs/support.md).
 */
export { connectSupport } from './subscriptions.ts';
export { registerSupportRoutes } from './routes.ts';
export { supportReport, supportRequestText } from './admin.ts';
