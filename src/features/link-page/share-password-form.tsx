import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { AppError } from '../../lib/app-error';
import { errorText, shareRetryIn } from '../../lib/error-messages';
import { ShareCard } from './share-card';

/**
 * The password of a protected link. A wrong one keeps what was typed and the focus in the field, with the
 * sentence beside it; too many wrong ones count down to when the next try is allowed.
 */
export function SharePasswordForm({ refusal, retryAt, submitting, onSubmit }: {
  refusal: AppError | null;
  retryAt: number | null;
  submitting: boolean;
  onSubmit: (password: string) => void;
}) {
  const [password, setPassword] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const waitLeft = useCountdown(retryAt);
  const waiting = refusal?.code === 'share/rate-limited' && waitLeft > 0;

  useEffect(() => {
    if (!submitting) input.current?.focus();
  }, [submitting, refusal]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!password || waiting || submitting) return;
    onSubmit(password);
  };
  const said = refusal ? errorText(refusal.code) : null;
  return (
    <ShareCard>
      <h1>{errorText('share/password-required').title}</h1>
      <p className="muted">{errorText('share/password-required').action}</p>
      <form onSubmit={submit} noValidate style={{ textAlign: 'start' }}>
        <div className="field">
          <label htmlFor="share-password">Password</label>
          <input
            ref={input}
            id="share-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={refusal?.code === 'share/wrong-password' || undefined}
            aria-describedby={said ? 'share-password-error' : undefined}
          />
          {said && (
            <p id="share-password-error" className="error-line" role="alert">
              {refusal?.code === 'share/rate-limited' ? `${said.title} ${shareRetryIn(waitLeft)}` : `${said.title} ${said.action}`}
            </p>
          )}
        </div>
        <div className="settings-row">
          <button type="submit" className="btn btn--primary" disabled={submitting || waiting || !password}>
            {submitting ? 'Opening…' : 'Open album'}
          </button>
        </div>
      </form>
    </ShareCard>
  );
}

/** Seconds left until `at`, updated every second; 0 once it has passed or when there is none. */
function useCountdown(at: number | null): number {
  const left = () => (at === null ? 0 : Math.max(0, Math.ceil((at - Date.now()) / 1000)));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    if (at === null) return;
    const timer = setInterval(() => {
      const s = left();
      setSeconds(s);
      if (s === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
    // `left` reads only `at`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [at]);
  return seconds;
}
