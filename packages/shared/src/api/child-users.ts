/**
 * Child users (docs/accounts.md#child-users): the users an account holder (admin) adds to work inside
 * the account. The admin creates them with the registration form's fields (no company, no terms),
 * lists, disables, enables and deletes them, and has a password-reset email sent to them. The plan's
 * `users` (the catalogue) is the number of users of the account, the admin included.
 */
import { z } from 'zod';
import { IdSchema } from './common.ts';
import { RegisterRequestSchema } from './users.ts';

/** The registration form's fields and checks, without company and terms (the spec's create-child-user form). */
export const RegisterChildRequestSchema = RegisterRequestSchema.pick({ firstName: true, lastName: true, email: true, password: true, confirmPassword: true });
export type RegisterChildRequest = z.input<typeof RegisterChildRequestSchema>;

export const CHILD_USER_STATUSES = ['active', 'disabled'] as const;
export type ChildUserStatus = (typeof CHILD_USER_STATUSES)[number];

/** A child user as the admin sees it. */
export const ChildUserSchema = z.object({
  uid: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** A new child user is active at once; a disabled one cannot sign in and its sessions have ended. */
  status: z.enum(CHILD_USER_STATUSES),
  createdAt: z.string(),
  /** When the admin disabled the user (ISO); null while active. */
  disabledAt: z.string().nullable(),
});
export type ChildUser = z.infer<typeof ChildUserSchema>;

/** The account's users against its plan: `used` counts the admin and every child user, disabled ones too. */
export const SeatsSchema = z.object({
  used: z.number().int().min(1),
  /** The plan's `users` on this edition (entitlements). */
  limit: z.number().int().min(1),
});
export type Seats = z.infer<typeof SeatsSchema>;

export const ChildUserListSchema = z.object({
  users: z.array(ChildUserSchema),
  seats: SeatsSchema,
});
export type ChildUserList = z.infer<typeof ChildUserListSchema>;

export const ChildUserParamsSchema = z.object({ uid: IdSchema });
