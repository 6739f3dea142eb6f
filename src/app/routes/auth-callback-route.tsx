import { Navigate, useSearchParams } from 'react-router';
import { useSession } from '../../backend/backend-context';
import { safeNext } from '../../lib/safe-next';

/**
 * Where magic links and OAuth providers send the user back. The auth adapter finishes the sign-in from the
 * URL when it starts; this screen waits for the session, or says what the provider reported.
 */
export function AuthCallbackRoute() {
  const session = useSession();
  const [params] = useSearchParams();
  const hash = new URLSearchParams(window.location.hash.slice(1));
  const problem = params.get('error_description') ?? hash.get('error_description');
  if (session) return <Navigate to={safeNext(params.get('next'))} replace />;
  return (
    <main className="page page--center">
      {problem ? (
        <div className="error-panel" role="alert">
          <p className="error-panel__title">Signing in did not work.</p>
          <p>{problem}</p>
          <a className="btn" href="/sign-in">
            Try again
          </a>
        </div>
      ) : (
        <p aria-busy="true">Signing you in…</p>
      )}
    </main>
  );
}
