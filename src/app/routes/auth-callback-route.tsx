import { useEffect } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useSession } from '../../backend/backend-context';
import { SIGN_IN_FAILED } from '../../lib/error-messages';
import { log } from '../../lib/log';
import { safeNext } from '../../lib/safe-next';

/**
 * Where magic links and OAuth providers send the user back. The auth adapter finishes the sign-in from the
 * URL when it starts; this screen waits for the session, or says what the provider reported.
 */
export function AuthCallbackRoute() {
  const session = useSession();
  const [params] = useSearchParams();
  const hash = new URLSearchParams(window.location.hash.slice(1));
  // Anyone can write this into a link: the provider's words go to the log, the screen says the catalogue's.
  const problem = params.get('error_description') ?? hash.get('error_description');
  useEffect(() => {
    if (problem) log.warn('Sign-in provider reported:', problem);
  }, [problem]);
  if (session) return <Navigate to={safeNext(params.get('next'))} replace />;
  return (
    <main className="page page--center">
      {problem ? (
        <div className="error-panel" role="alert">
          <p className="error-panel__title">{SIGN_IN_FAILED.title}</p>
          <p className="error-panel__action">{SIGN_IN_FAILED.action}</p>
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
