/**
 * The signed-in session: access and refresh tokens kept in localStorage (docs/accounts.md#sessions),
 * with a change signal so the UI re-renders when a call signs the user out. Storage is injected so the
 * API client's core runs in Node tests as well as in the browser.
 */
import { PRODUCT_NAME } from '@sheaf/shared';

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export const TOKEN_KEY = 'sheaf.token';
export const REFRESH_TOKEN_KEY = 'sheaf.refreshToken';
/** Tokens are for this audience; anything else (another project's token) signs the user out. */
export const TOKEN_AUDIENCE = PRODUCT_NAME;

export interface TokenClaims {
  sub?: string;
  aud?: string | string[];
  exp?: number;
}

/** Reads a JWT's claims without verifying it (the server verifies; the client only looks at exp/aud). */
export function decodeToken(token: string): TokenClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const claims = JSON.parse(json) as unknown;
    return claims && typeof claims === 'object' ? (claims as TokenClaims) : null;
  } catch {
    return null;
  }
}

export function hasOurAudience(claims: TokenClaims): boolean {
  return Array.isArray(claims.aud) ? claims.aud.includes(TOKEN_AUDIENCE) : claims.aud === TOKEN_AUDIENCE;
}

/** Expired, or expiring within `skewSeconds` (refreshing a moment early avoids a wasted 401). */
export function isExpired(claims: TokenClaims, nowMs: number, skewSeconds = 10): boolean {
  return typeof claims.exp === 'number' && claims.exp * 1000 <= nowMs + skewSeconds * 1000;
}

export interface SessionStore {
  token(): string | null;
  refreshToken(): string | null;
  set(token: string, refreshToken: string): void;
  clear(): void;
  /** Called after every change (sign-in, refresh, sign-out); returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

export function createSessionStore(storage: KeyValueStorage): SessionStore {
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((listener) => listener());
  return {
    token: () => storage.getItem(TOKEN_KEY),
    refreshToken: () => storage.getItem(REFRESH_TOKEN_KEY),
    set(token, refreshToken) {
      storage.setItem(TOKEN_KEY, token);
      storage.setItem(REFRESH_TOKEN_KEY, refreshToken);
      emit();
    },
    clear() {
      const had = storage.getItem(TOKEN_KEY) !== null || storage.getItem(REFRESH_TOKEN_KEY) !== null;
      storage.removeItem(TOKEN_KEY);
      storage.removeItem(REFRESH_TOKEN_KEY);
      if (had) emit();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** An in-memory storage: Node tests, and browsers where localStorage is blocked. */
export function memoryStorage(): KeyValueStorage {
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

/** localStorage when usable (private modes may throw), else memory. */
export function browserStorage(): KeyValueStorage {
  try {
    const storage = globalThis.localStorage;
    const probe = 'sheaf.probe';
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return storage;
  } catch {
    return memoryStorage();
  }
}
