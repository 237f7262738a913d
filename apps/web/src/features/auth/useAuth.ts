/**
 * Sign-in state and actions. The session lives in the API client (tokens in localStorage); this hook
 * re-renders on every change, so a call that ends the session (failed refresh) sends the user to
 * /login through the route guards.
 */
import { useCallback, useSyncExternalStore } from 'react';
import type { RegisterRequest, Session } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { clearTemplateCache } from '../../api/templateCache.ts';
import { queryClient } from '../../app/queryClient.ts';
import { currentLanguage } from '../../i18n/index.ts';

const subscribe = (listener: () => void) => api.session.subscribe(listener);
const isSignedInNow = () => api.session.token() !== null || api.session.refreshToken() !== null;

export function useIsSignedIn(): boolean {
  return useSyncExternalStore(subscribe, isSignedInNow, isSignedInNow);
}

function startSession(session: Session): void {
  queryClient.clear();
  api.session.set(session.token, session.refreshToken);
}

/** Everything of the signed-out user leaves the device: server-state cache and template bytes. */
export function installSessionCleanup(): () => void {
  return api.session.subscribe(() => {
    if (isSignedInNow()) return;
    queryClient.clear();
    void clearTemplateCache();
  });
}

export function useAuth() {
  const login = useCallback(async (email: string, password: string) => {
    startSession(await api.call('login', { body: { email, password } }));
  }, []);

  const register = useCallback(async (request: RegisterRequest) => {
    startSession(await api.call('register', { body: { ...request, language: currentLanguage() } }));
  }, []);

  /** Sign-in with Google, Apple or Microsoft: the one-time code of /oauth/callback (docs/accounts.md#social-sign-in). */
  const loginWithProvider = useCallback(async (token: string) => {
    startSession(await api.call('loginOAuth', { body: { token } }));
  }, []);

  /** A new account through the provider (flagged OAuth and new), or the one already linked to it. */
  const registerWithProvider = useCallback(async (token: string) => {
    startSession(await api.call('registerOAuth', { body: { token, language: currentLanguage() } }));
  }, []);

  /** Links the provider to the password account with its address (its password), then signs in. */
  const linkProvider = useCallback(async (token: string, password: string) => {
    startSession(await api.call('linkOAuth', { body: { token, password } }));
  }, []);

  const logout = useCallback(async () => {
    const refreshToken = api.session.refreshToken() ?? undefined;
    api.endSession();
    // Revoke the refresh token on the server; the local sign-out does not wait for it.
    if (refreshToken) void api.call('logout', { body: { refreshToken } }).catch(() => undefined);
  }, []);

  return { login, register, loginWithProvider, registerWithProvider, linkProvider, logout };
}
