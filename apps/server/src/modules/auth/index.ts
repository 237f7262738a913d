/**
 * The auth module's public surface: sign-up, sign-in, sessions and tokens, password checks, rate
 * limits, and the account changes that need the current password.
 */
export { register, login, requestPasswordReset, confirmPasswordReset } from './service.ts';
// Child users (modules/team): the sign-up checks, the hash, the reset mail and the end of a user's sessions.
export { checkNewUserFields, sendPasswordResetMail, isUniqueViolation, type NewUserFields } from './service.ts';
export { hashPassword } from './passwords.ts';
export { endUserSessions } from './sessions.ts';
export { changeEmail, changePassword, deleteAccount } from './account.ts';
export { verifyAccessToken } from './tokens.ts';
export { takeAttempts, licenceActivationKeys, supportRequestKeys, type LimitedKey } from './rate-limits.ts';
export { registerChildKeys, resetKeys } from './rate-limits.ts';
export { attemptsSweepJob, registerAuthJobs } from './attempts-sweep.ts';
export type { AccountDeleting } from './events.ts';
export { registerAuthRoutes } from './routes.ts';
// Sign-in with Google, Apple and Microsoft (docs/accounts.md#social-sign-in).
export { registerOAuthRoutes } from './oauth-routes.ts';
