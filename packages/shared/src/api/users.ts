import { z } from 'zod';
import { LANGUAGES, MIN_PASSWORD_LENGTH } from '../constants.ts';
import { BILLING_PLANS } from '../plans.ts';
import { cleanWhitespace } from './common.ts';

/** A valid address whose last domain label looks like a top-level domain (letters, or punycode). */
const EMAIL_PATTERN = /^[^\s@"(),:;<>[\\\]]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{2,59})$/;
export const isValidEmail = (value: string): boolean => value.length <= 254 && EMAIL_PATTERN.test(cleanWhitespace(value));

/** Emails are compared and stored trimmed and lower-cased. */
export const EmailSchema = z.string().transform((value) => cleanWhitespace(value).toLowerCase());

export const BillingPlanSchema = z.enum(BILLING_PLANS);
export const LanguageSchema = z.enum(LANGUAGES);

/** The user as the client sees it (no secrets; docs/accounts.md). */
export const UserSchema = z.object({
  uid: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  company: z.string(),
  language: LanguageSchema,
  billingPlan: BillingPlanSchema,
  billingCycle: z.enum(['month', 'year']).nullable(),
  /** Start of the current quota period (ISO); the counter renews one month later. */
  billingDate: z.string(),
  /** Documents generated in the current period; -1 while unknown. */
  counter: z.number().int(),
  /** Documents the plan allows per period; null means unlimited. */
  quota: z.number().int().nullable(),
  currency: z.string(),
  createdAt: z.string(),
  parentUid: z.string().nullable(),
  isOAuthUser: z.boolean(),
  /**
   * The account has a password. An account made through Google, Apple or Microsoft has none until it
   * sets one with a reset link; changing the email or password and deleting the account ask for it.
   */
  hasPassword: z.boolean(),
  isNewUser: z.boolean(),
  /** Home view: template grid or list. */
  view: z.enum(['grid', 'list']),
  /** A checkout or plan change waits for Stripe's confirmation (docs/billing.md#checkout). */
  isUpdatingBillingPlan: z.boolean(),
});
export type User = z.infer<typeof UserSchema>;

export const LoginRequestSchema = z.object({
  email: EmailSchema,
  password: z.string().max(1024),
});

export const RegisterRequestSchema = z.object({
  firstName: z.string().max(100),
  lastName: z.string().max(100),
  company: z.string().max(200).optional(),
  email: EmailSchema,
  password: z.string().max(1024),
  confirmPassword: z.string().max(1024),
  language: LanguageSchema.optional(),
  ga4ClientId: z.string().max(200).optional(),
  linkedinId: z.string().max(200).optional(),
});
export type RegisterRequest = z.input<typeof RegisterRequestSchema>;

/** Login and registration both answer with a session: a short-lived access token and a refresh token. */
export const SessionSchema = z.object({
  token: z.string(),
  refreshToken: z.string(),
  uid: z.string(),
  email: z.string(),
  /** Seconds until the access token expires. */
  expiresIn: z.number().int(),
});
export type Session = z.infer<typeof SessionSchema>;

/** The token endpoint of docs/accounts.md#sessions (refresh grant); the refresh token rotates on every use. */
export const TokenRequestSchema = z.object({
  grant_type: z.literal('refresh_token'),
  refresh_token: z.string().min(1).max(512),
});
export const TokenResponseSchema = z.object({
  id_token: z.string(),
  refresh_token: z.string(),
  user_id: z.string(),
  expires_in: z.number().int(),
});

export const LogoutRequestSchema = z.object({ refreshToken: z.string().max(512).optional() });

export const ResetPasswordRequestSchema = z.object({ email: EmailSchema, language: LanguageSchema.optional() });
/** Second half of a reset: the token from the emailed link and the new password. */
export const ResetPasswordConfirmSchema = z.object({
  token: z.string().min(1).max(512),
  password: z.string().max(1024),
  confirmPassword: z.string().max(1024),
});

export const UpdateMeSchema = z.object({
  firstName: z.string().max(100).optional(),
  lastName: z.string().max(100).optional(),
  company: z.string().max(200).optional(),
  language: LanguageSchema.optional(),
  view: z.enum(['grid', 'list']).optional(),
});
export const ChangeEmailSchema = z.object({ email: EmailSchema, password: z.string().max(1024) });
export const ChangePasswordSchema = z.object({
  currentPassword: z.string().max(1024),
  password: z.string().max(1024),
  confirmPassword: z.string().max(1024),
});
export const DeleteAccountSchema = z.object({ password: z.string().max(1024) });

export { MIN_PASSWORD_LENGTH };
