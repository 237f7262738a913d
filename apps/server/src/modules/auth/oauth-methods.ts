/**
 * The ways an account signs in (docs/accounts.md#social-sign-in): its password, if it has one, and the
 * providers linked to it. A password login of an account made through a provider is answered with them.
 */
import { OAUTH_PROVIDER_NAMES, SheafError, type SignInMethod } from '@sheaf/shared';
import type { Queryable } from '../../adapters/db/types.ts';
import type { UserRow } from '../users/index.ts';
import { identityProviders } from './oauth-repository.ts';

/** How the user can sign in: the password (when the account has one), then its linked providers. */
export async function signInMethodsOf(q: Queryable, user: Pick<UserRow, 'id' | 'password_hash'>): Promise<SignInMethod[]> {
  return [...(user.password_hash ? (['password'] as const) : []), ...(await identityProviders(q, user.id))];
}

/** "Google", "your email and password or Google": the methods as the English message lists them. */
export function methodList(methods: readonly SignInMethod[]): string {
  const names = methods.map((method) => (method === 'password' ? 'your email and password' : OAUTH_PROVIDER_NAMES[method]));
  return new Intl.ListFormat('en', { type: 'disjunction' }).format(names);
}

/**
 * A password login of an account that has no password (made through a provider):
 * pdfmm/unsupported-sign-in-method with the methods it has. Undefined when that is not the case.
 */
export async function unsupportedSignInMethod(q: Queryable, user: Pick<UserRow, 'id' | 'password_hash'>): Promise<SheafError | undefined> {
  if (user.password_hash) return undefined;
  const methods = await signInMethodsOf(q, user);
  if (methods.length === 0) return undefined;
  return new SheafError('pdfmm/unsupported-sign-in-method', { methods: methodList(methods), methodIds: methods.join(',') });
}
