import { formatBytes, formatNumber } from '../../lib/format';
import { ErrorLine } from '../../ui/error-panel';
import type { DownloadState } from './use-download';

/** Where a download stands: preparing, bytes and files written of the known total, done, or why it stopped. */
export function DownloadPanel({ state, onCancel, onDismiss }: { state: DownloadState; onCancel: () => void; onDismiss: () => void }) {
  if (state.kind === 'idle') return null;
  if (state.kind === 'error') {
    return (
      <div className="download-panel download-panel--error" data-testid="download-panel">
        <strong>The download stopped.</strong>
        <ErrorLine error={state.error} />
        <button type="button" className="btn" onClick={onDismiss}>Close</button>
      </div>
    );
  }
  const p = state.progress;
  const what = state.mode === 'folder' ? 'Saving into the folder' : 'Downloading ZIP';
  return (
    <div className="download-panel" role="status" aria-live="polite" data-testid="download-panel">
      <div className="download-panel__text">
        <strong>{state.kind === 'done' ? 'Download complete' : p ? what : 'Preparing the download…'}</strong>
        {p && (
          <span className="muted">
            {formatBytes(p.bytes)} of {formatBytes(p.totalBytes)} · {formatNumber(p.files)} of {formatNumber(p.totalFiles)} files
            {state.skipped ? ` · ${formatNumber(state.skipped)} already there` : ''}
          </span>
        )}
        {state.kind === 'running' && <progress max={p?.totalBytes ?? 1} value={p?.bytes ?? undefined} aria-label={what} />}
      </div>
      {state.kind === 'running' ? (
        <button type="button" className="btn" onClick={onCancel}>Cancel</button>
      ) : (
        <button type="button" className="btn" onClick={onDismiss}>Close</button>
      )}
    </div>
  );
}
