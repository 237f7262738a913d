/**
 * Who may do what: the scopes a principal (the one acting in a request) holds. A signed-in session
 * holds them all; an API key (later) holds the ones it was made with. The server's access module
 * (apps/server/src/access) decides with them, and child users are refused billing and user management
 * whatever they hold.
 */
export const SCOPES = [
  'templates:read',
  'templates:write',
  'merges:read',
  'merges:write',
  'senders:read',
  'senders:write',
  /** The acting user's own profile, email, password and login. */
  'account',
  /** Plan, payment, credits bought. Never a child user's. */
  'billing',
  /** Child users of the account. Never a child user's. */
  'users:manage',
] as const;
export type Scope = (typeof SCOPES)[number];

/** How the principal proved who it is. */
export const AUTH_METHODS = ['session', 'apiKey'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** The scopes that only read. */
export const READ_SCOPES: readonly Scope[] = ['templates:read', 'merges:read', 'senders:read'];

/** Scopes only the account's own user (not a child user) may use, whatever they hold. */
export const ACCOUNT_OWNER_SCOPES: readonly Scope[] = ['billing', 'users:manage'];

export const isScope = (value: unknown): value is Scope => (SCOPES as readonly unknown[]).includes(value);
