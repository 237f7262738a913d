/**
 * Route guards (docs/web-app.md#routes): protected pages send signed-out users to /login and remember
 * where they were going; public pages (login, register, reset) send signed-in users on, to that
 * remembered page (or the ?next= page of a link such as /offline's "sign in to the billing portal"),
 * to /billing when a plan was chosen before signing up, else home.
 */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { afterSignIn } from './afterSignIn.ts';
import { useIsSignedIn } from './useAuth.ts';

interface FromState {
  from?: string;
}

export function RequireAuth({ children }: { children: ReactNode }) {
  const signedIn = useIsSignedIn();
  const location = useLocation();
  if (!signedIn) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={from === '/' ? undefined : ({ from } satisfies FromState)} />;
  }
  return <>{children}</>;
}

export function PublicOnly({ children }: { children: ReactNode }) {
  const signedIn = useIsSignedIn();
  const location = useLocation();
  if (signedIn) {
    const from = (location.state as FromState | null)?.from;
    return <Navigate to={afterSignIn(from, new URLSearchParams(location.search))} replace />;
  }
  return <>{children}</>;
}
