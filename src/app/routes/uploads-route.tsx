import { Link } from 'react-router';
import { IosStorageNote } from '../../features/uploads/ios-storage-note';
import { keepsPlace, LocationChoice, LocationChoiceForAll } from '../../features/uploads/location-choice';
import { OfflineUploadsNote } from '../../features/uploads/offline-uploads-note';
import { queueTransferText, retryText } from '../../features/uploads/retry-text';
import { UploadThumb } from '../../features/uploads/upload-thumb';
import { useUploadEngine, useUploadQueue } from '../../features/uploads/upload-engine-provider';
import { isNetworkStage, type TaskState } from '../../upload/upload-task';
import type { UploadTaskView } from '../../upload/upload-engine';
import { AppError } from '../../lib/app-error';
import { describeError } from '../../lib/error-messages';
import { formatBytes, formatNumber, formatTransfer, safeFilename } from '../../lib/format';
import { Icon } from '../../ui/icon';

const STATE_TEXT: Record<TaskState, string> = {
  queued: 'Waiting',
  reading: 'Reading',
  processing: 'Making previews',
  uploading: 'Uploading',
  finalizing: 'Finishing',
  done: 'Done',
  paused: 'Paused',
  failed: 'Failed',
  canceled: 'Canceled',
};

export function UploadsRoute() {
  const engine = useUploadEngine();
  const { tasks, totals } = useUploadQueue({ load: true });
  const finished = tasks.some((t) => t.state === 'done' || t.state === 'canceled');
  const pct = totals.bytesTotal > 0 ? (totals.bytesDone / totals.bytesTotal) * 100 : 0;
  const waitingForNetwork = totals.offline && totals.filesTotal - totals.filesDone - totals.filesFailed - totals.filesAwaitingChoice > 0;
  return (
    <div className="page">
      <div className="page-header">
        <div className="page-header__text">
          <h1>Uploads</h1>
          <p className="muted">Uploads keep going while you browse, and resume after a reload.</p>
          <IosStorageNote />
        </div>
        <div className="page-header__actions">
          {totals.paused ? (
            <button type="button" className="btn" onClick={() => void engine.resumeAll()}>
              <Icon name="play" /> Resume all
            </button>
          ) : (
            <button type="button" className="btn" onClick={() => void engine.pauseAll()} disabled={!totals.running}>
              <Icon name="pause" /> Pause all
            </button>
          )}
          <button type="button" className="btn" onClick={() => void engine.clearFinished()} disabled={!finished}>
            Clear finished
          </button>
        </div>
      </div>
      {tasks.length === 0 ? (
        <div className="empty">
          <h2>Nothing to upload</h2>
          <p>
            Open an <Link to="/">album</Link> and drop files into it.
          </p>
        </div>
      ) : (
        <>
          {waitingForNetwork && <OfflineUploadsNote />}
          <div className="stats" aria-live="polite">
            <span>
              {formatNumber(totals.filesDone)} of {formatNumber(totals.filesTotal)} files
            </span>
            <span>
              {formatBytes(totals.bytesDone)} of {formatBytes(totals.bytesTotal)}
            </span>
            {/* Speed and time left only while something moves: "0 s left" for a queue that waits on the person misleads. */}
            {totals.running && <span>{queueTransferText(totals)}</span>}
            {totals.filesFailed > 0 && <span style={{ color: 'var(--danger)' }}>{totals.filesFailed} failed</span>}
            {totals.filesAwaitingChoice > 0 && <span>{totals.filesAwaitingChoice} waiting for your choice</span>}
          </div>
          <div className="progress" role="progressbar" aria-label="Overall progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(pct)} style={{ marginBottom: 16 }}>
            <span style={{ width: `${pct}%` }} />
          </div>
          <LocationChoiceForAll tasks={tasks} actions={engine} />
          <ul className="upload-list" aria-label="Upload queue">
            {tasks.map((t) => (
              <TaskRow key={t.id} task={t} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function TaskRow({ task }: { task: UploadTaskView }) {
  const engine = useUploadEngine();
  const placeLeft = keepsPlace(task);
  const err = task.error && !placeLeft ? describeError(AppError.fromJSON(task.error)) : null;
  const pct = task.bytes > 0 ? Math.min(100, (task.bytesDone / task.bytes) * 100) : 0;
  const active = task.state === 'reading' || task.state === 'processing' || task.state === 'uploading' || task.state === 'finalizing' || task.state === 'queued';
  const name = safeFilename(task.filename);
  // A network stage that failed for a moment waits to be tried again: shown as such, not as a stalled upload.
  const retryAt = task.retryAt !== null && isNetworkStage(task.state) ? task.retryAt : null;
  // storage/cors carries the exact rule the bucket needs; show it where the owner can copy it.
  const corsRule = typeof task.error?.details?.corsRule === 'string' ? task.error.details.corsRule : null;
  return (
    <li className="upload-row" data-state={task.state} data-choice={placeLeft ? 'location' : undefined} data-task-id={task.id} style={{ contentVisibility: 'auto', containIntrinsicSize: 'auto 64px' }}>
      <UploadThumb id={task.id} kind={task.kind} thumbhash={task.thumbhash} source={engine} />
      <span className="upload-row__name" title={name}>
        {name}
      </span>
      <span className="upload-row__actions">
        {active && (
          <button type="button" className="btn btn--icon" aria-label={`Pause ${name}`} onClick={() => void engine.pause(task.id)}>
            <Icon name="pause" />
          </button>
        )}
        {task.state === 'paused' && (
          <button type="button" className="btn btn--icon" aria-label={`Resume ${name}`} onClick={() => void engine.resume(task.id)}>
            <Icon name="play" />
          </button>
        )}
        {task.state === 'failed' && task.error?.retryable !== false && (
          <button type="button" className="btn btn--icon" aria-label={`Retry ${name}`} onClick={() => void engine.retry(task.id)}>
            <Icon name="retry" />
          </button>
        )}
        {(active || task.state === 'paused') && (
          <button type="button" className="btn btn--icon" aria-label={`Cancel ${name}`} onClick={() => void engine.cancel(task.id)}>
            <Icon name="close" />
          </button>
        )}
        {(task.state === 'canceled' || task.state === 'done' || (task.state === 'failed' && !placeLeft)) && (
          <button type="button" className="btn btn--icon" aria-label={`Remove ${name} from the list`} onClick={() => void engine.remove(task.id)}>
            <Icon name="trash" />
          </button>
        )}
      </span>
      <span className="upload-row__state">
        {placeLeft ? 'Waiting for your choice' : retryAt !== null ? retryText(retryAt) : STATE_TEXT[task.state]}
        {task.state === 'uploading' && retryAt === null && ` · ${formatBytes(task.bytesDone)} of ${formatBytes(task.bytes)} · ${formatTransfer(task.speedBps, task.etaSeconds)}`}
        {(task.state !== 'uploading' || retryAt !== null) && ` · ${formatBytes(task.bytes)}`}
        {err && (
          <span role="alert" data-error-code={err.code}>
            {' '}
            — {err.title} {err.action}
          </span>
        )}
        {placeLeft && <LocationChoice task={task} actions={engine} />}
        {corsRule && (
          <details className="upload-row__detail">
            <summary>CORS rule to add to the bucket</summary>
            <pre data-testid="cors-rule">{corsRule}</pre>
          </details>
        )}
        {task.state === 'uploading' && (
          <span className="progress" style={{ display: 'block', marginTop: 4 }} aria-hidden="true">
            <span style={{ width: `${pct}%` }} />
          </span>
        )}
      </span>
    </li>
  );
}
