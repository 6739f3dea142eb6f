import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useBackend, useSession } from '../../backend/backend-context';

/** On a backend with accounts, screens that need one send a signed-out visitor to sign in, and back after. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { auth } = useBackend();
  const session = useSession();
  const location = useLocation();
  if (auth.capabilities().requiresSignIn && !session) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  return <>{children}</>;
}
