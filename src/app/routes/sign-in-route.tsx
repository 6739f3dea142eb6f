import { useId, useState, type FormEvent } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useBackend, useSession } from '../../backend/backend-context';
import { SignedOutNotice } from '../../features/devices/signed-out-notice';
import { safeNext } from '../../lib/safe-next';
import { ErrorLine } from '../../ui/error-panel';
import { useActionError } from '../../ui/use-action-error';

/** Email and password, a magic link, and the OAuth providers the project enables. Only on a backend with accounts. */
export function SignInRoute() {
  const { auth } = useBackend();
  const session = useSession();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const id = useId();
  const [mode, setMode] = useState<'sign-in' | 'sign-up'>('sign-in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const { error, attempt } = useActionError();
  const [notice, setNotice] = useState<string | null>(null);
  const caps = auth.capabilities();

  if (!caps.requiresSignIn || session) return <Navigate to={next} replace />;

  const callback = `${window.location.origin}/auth/callback?next=${encodeURIComponent(next)}`;
  const run = async (fn: () => Promise<unknown>, done?: string) => {
    setBusy(true);
    setNotice(null);
    const ok = await attempt(fn);
    if (ok && done) setNotice(done);
    setBusy(false);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (mode === 'sign-in') void run(() => auth.signInWithPassword(email, password));
    else {
      void run(async () => {
        const s = await auth.signUp(email, password, name.trim() || email.split('@')[0] || 'Me');
        if (!s) setNotice('Check your email: open the link we sent to confirm your address.');
      });
    }
  };

  return (
    <main className="page page--center">
      <div className="card" style={{ width: 'min(420px, 100%)' }}>
        <h1 style={{ fontSize: 22, marginTop: 0 }}>{mode === 'sign-in' ? 'Sign in to Shoebox' : 'Create your account'}</h1>
        <SignedOutNotice />
        {caps.methods.includes('password') && (
          <form onSubmit={submit} noValidate>
            {mode === 'sign-up' && (
              <div className="field">
                <label htmlFor={`${id}-name`}>Your name</label>
                <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" />
              </div>
            )}
            <div className="field">
              <label htmlFor={`${id}-email`}>Email</label>
              <input id={`${id}-email`} type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" required />
            </div>
            <div className="field">
              <label htmlFor={`${id}-password`}>Password</label>
              <input
                id={`${id}-password`}
                type="password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
                required
              />
            </div>
            {error !== null && <ErrorLine error={error} />}
            {notice && <p role="status">{notice}</p>}
            <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
              <button type="submit" className="btn btn--primary" disabled={busy || !email || !password}>
                {mode === 'sign-in' ? 'Sign in' : 'Create account'}
              </button>
              {caps.methods.includes('magic-link') && mode === 'sign-in' && (
                <button type="button" className="btn" disabled={busy || !email} onClick={() => void run(() => auth.sendMagicLink(email, callback), 'Check your email for a sign-in link.')}>
                  Email me a link
                </button>
              )}
            </div>
          </form>
        )}
        {caps.oauthProviders.length > 0 && (
          <div style={{ display: 'flex', flexDirection: 'column', gap: 8, marginTop: 16 }}>
            {caps.oauthProviders.map((p) => (
              <button key={p} type="button" className="btn" disabled={busy} onClick={() => void run(() => auth.signInWithOAuth(p, callback))}>
                Continue with {p[0]?.toUpperCase()}
                {p.slice(1)}
              </button>
            ))}
          </div>
        )}
        <p style={{ marginBottom: 0 }}>
          <button type="button" className="btn btn--ghost" onClick={() => setMode(mode === 'sign-in' ? 'sign-up' : 'sign-in')}>
            {mode === 'sign-in' ? 'New here? Create an account' : 'Have an account? Sign in'}
          </button>
        </p>
      </div>
    </main>
  );
}
