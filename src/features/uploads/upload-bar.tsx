import { Link, useLocation } from 'react-router';
import { formatBytes, formatNumber } from '../../lib/format';
import { OFFLINE_UPLOADS } from './offline-uploads-note';
import { queueTransferText } from './retry-text';
import { useUploadQueue } from './upload-engine-provider';

/**
 * A compact progress bar on every screen while uploads are running, but the uploads screen itself: that says all
 * of it and more, and on a phone the bar would cover its last row.
 */
export function UploadBar() {
  const { totals } = useUploadQueue();
  const { pathname } = useLocation();
  if (pathname === '/uploads') return null;
  const unfinished = totals.filesTotal - totals.filesDone;
  const needAttention = totals.filesFailed + totals.filesAwaitingChoice;
  if (!totals.running && needAttention === 0 && !totals.offline) return null;
  if (unfinished <= 0) return null;
  const pct = totals.bytesTotal > 0 ? Math.min(100, (totals.bytesDone / totals.bytesTotal) * 100) : 0;
  return (
    <aside className={totals.offline ? 'upload-bar upload-bar--offline' : 'upload-bar'} aria-label="Upload progress">
      <div className="upload-bar__text">
        <div role={totals.offline ? 'status' : undefined}>
          {totals.offline
            ? OFFLINE_UPLOADS
            : totals.running
              ? `${formatNumber(totals.filesDone)} of ${formatNumber(totals.filesTotal)} uploaded`
              : needAttention > 0
                ? needAttention === 1
                  ? '1 upload needs attention'
                  : `${formatNumber(needAttention)} uploads need attention`
                : 'Uploads paused'}
        </div>
        <div className="progress" role="progressbar" aria-label="Overall upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(pct)}>
          <span style={{ width: `${pct}%` }} />
        </div>
        <small className="muted">
          {formatBytes(totals.bytesDone)} of {formatBytes(totals.bytesTotal)}
          {totals.running && ` · ${queueTransferText(totals)}`}
        </small>
      </div>
      <Link className="btn" to="/uploads">
        Details
      </Link>
    </aside>
  );
}
