import { describeError } from '../lib/error-messages';

/** An error as a sentence plus what to do; renders nothing for a cancellation. */
export function ErrorPanel({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const d = describeError(error);
  if (!d) return null;
  return (
    <div className="error-panel" role="alert" data-error-code={d.code}>
      <p className="error-panel__title">{d.title}</p>
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
  if (!d) return null;
  return (
    <p className="error-line" role="alert" data-error-code={d.code}>
      {d.code === 'validation/invalid' ? d.detail : `${d.title} ${d.action}`}
    </p>
  );
}
