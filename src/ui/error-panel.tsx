import { useEffect } from 'react';
import { describeError } from '../lib/error-messages';
import { log } from '../lib/log';

/** The error's own text (an adapter's or the database's words) goes to the log only, once per error. */
function useLogged(error: unknown, shown: boolean) {
  useEffect(() => {
    if (shown) log.warn('Shown to the user:', error);
  }, [error, shown]);
}

/** An error as a sentence plus what to do; renders nothing for a cancellation. */
export function ErrorPanel({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const d = describeError(error);
  useLogged(error, d !== null);
  if (!d) return null;
  return (
    <div className="error-panel" role="alert" data-error-code={d.code}>
      <p className="error-panel__title">{d.fieldText ?? d.title}</p>
      <p className="error-panel__action">{d.action}</p>
      {onRetry && (
        <button type="button" className="btn" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** A one-line message for a field or a toast. */
export function ErrorLine({ error }: { error: unknown }) {
  const d = describeError(error);
  useLogged(error, d !== null && d.fieldText === null);
  if (!d) return null;
  return (
    <p className="error-line" role="alert" data-error-code={d.code}>
      {d.fieldText ?? `${d.title} ${d.action}`}
    </p>
  );
}

/** The line above data a refresh could not bring up to date: why, and a way to try again. */
export function StaleNotice({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const d = describeError(error);
  useLogged(error, d !== null);
  if (!d) return null;
  return (
    <div className="notice stale-notice" role="status" data-error-code={d.code}>
      <span>{d.title} What is shown was loaded earlier and may be out of date.</span>
      <button type="button" className="btn btn--small" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
