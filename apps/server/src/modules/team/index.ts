/**
 * The team module's public surface: an account's child users (docs/accounts.md#child-users), managed by
 * the account holder. It sits above auth (the sign-up checks, password hashes, reset mail, sessions).
 */
export { registerTeamRoutes } from './routes.ts';
export type { ChildUserDeleting } from './events.ts';
