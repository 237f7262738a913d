/**
 * The auth module's public surface: sign-up, sign-in, sessions and tokens, password checks, rate
 * limits, and the account changes that need the current password.
 */
export { register, login, requestPasswordReset, confirmPasswordReset } from './service.ts';
export { changeEmail, changePassword, deleteAccount } from './account.ts';
export { verifyAccessToken } from './tokens.ts';
export { takeAttempts, licenceActivationKeys, supportRequestKeys, type LimitedKey } from './rate-limits.ts';
export { attemptsSweepJob, registerAuthJobs } from './attempts-sweep.ts';
export type { AccountDeleting } from './events.ts';
export { registerAuthRoutes } from './routes.ts';
