/**
 * The choice for originals whose location could not be removed (see [Note: An original that keeps its place]
 * in src/upload/original-location.ts): upload the preview only, or skip the file. One file at a time in its
 * row, or every such file of the queue at once.
 */
import { locationLeftText } from '../../lib/error-messages';
import { safeFilename } from '../../lib/format';
import type { UploadTaskView } from '../../upload/queue-snapshot';

type TaskLike = Pick<UploadTaskView, 'id' | 'filename' | 'locationChoice'>;

export interface LocationChoiceActions {
  uploadPreviewOnly(id: string): Promise<void>;
  remove(id: string): Promise<void>;
}

/** Stopped because its location could not be removed. */
export const keepsPlace = (task: TaskLike) => task.locationChoice !== null;
/** …and has a preview to send instead. */
const offersPreviewOnly = (task: TaskLike) => task.locationChoice === 'preview-or-skip';

/** In a task's row: why it stopped, and its two ways on. */
export function LocationChoice({ task, actions }: { task: TaskLike; actions: LocationChoiceActions }) {
  const preview = offersPreviewOnly(task);
  const text = locationLeftText(preview);
  const name = safeFilename(task.filename);
  return (
    <span className="location-choice">
      <span role="alert" data-error-code="upload/unsupported">
        {text.title} {text.action}
      </span>
      <span className="location-choice__actions">
        {preview && (
          <button type="button" className="btn btn--small" aria-label={`Upload preview only of ${name}`} onClick={() => void actions.uploadPreviewOnly(task.id)}>
            Upload preview only
          </button>
        )}
        <button type="button" className="btn btn--small btn--ghost" aria-label={`Skip ${name}`} onClick={() => void actions.remove(task.id)}>
          Skip
        </button>
      </span>
    </span>
  );
}

/** Above the queue when several files stopped so: the same choice for all of them. */
export function LocationChoiceForAll({ tasks, actions }: { tasks: readonly TaskLike[]; actions: LocationChoiceActions }) {
  const stopped = tasks.filter(keepsPlace);
  if (stopped.length < 2) return null;
  const withPreview = stopped.filter(offersPreviewOnly);
  const all = (ids: TaskLike[], act: (id: string) => Promise<void>) => () => void Promise.all(ids.map((t) => act(t.id)));
  return (
    <div className="notice location-choice-all" role="region" aria-label="Files that still hold their place">
      <p>
        <strong>{stopped.length} files</strong> may still hold the place where they were taken, and it could not be removed from them. This album removes
        places from originals.
        {withPreview.length < stopped.length && ` ${stopped.length - withPreview.length} of them have no preview to upload instead.`}
      </p>
      <div className="location-choice__actions">
        {withPreview.length > 0 && (
          <button type="button" className="btn" onClick={all(withPreview, (id) => actions.uploadPreviewOnly(id))}>
            Upload previews only ({withPreview.length})
          </button>
        )}
        <button type="button" className="btn btn--ghost" onClick={all(stopped, (id) => actions.remove(id))}>
          Skip them all
        </button>
      </div>
    </div>
  );
}
