/**
 * The email module's public surface: mailings of merged documents (settings, test email, spam score,
 * reports, tracking, bounces). It sits above every other module and rides on merges through their
 * hooks and events (connectEmail, merge-hooks.ts); nothing imports it but boot and the HTTP layer.
 */
export { connectEmail } from './merge-hooks.ts';
export { startEmail, emailServiceOf, type EmailService } from './start.ts';
export { registerEmailRoutes } from './routes.ts';
export { registerSpamRoutes } from './spam-routes.ts';
