import { useId, useState, type FormEvent } from 'react';
import type { Album } from '../../domain/entities';
import { limits } from '../../config';
import { albumDescription, albumTitle, firstIssue } from '../../lib/validation';
import { ErrorLine } from '../../ui/error-panel';
import { CoverPicker } from './cover-picker';
import { useUpdateAlbum } from './use-albums';

/** Title, description and cover (owner, editor). A failed save keeps what was typed and chosen. */
export function AlbumDetailsSection({ album }: { album: Album }) {
  const id = useId();
  const update = useUpdateAlbum(album.id);
  const [title, setTitle] = useState(album.title);
  const [description, setDescription] = useState(album.description);
  const [cover, setCover] = useState<string | null>(album.coverItemId);
  const [saved, setSaved] = useState(false);
  const titleIssue = firstIssue(albumTitle, title);
  const descriptionIssue = firstIssue(albumDescription, description);
  const invalid = !!titleIssue || !!descriptionIssue;
  const changed = title !== album.title || description !== album.description || cover !== album.coverItemId;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (invalid || update.isPending) return;
    setSaved(false);
    update.mutate({ title, description, coverItemId: cover }, { onSuccess: () => setSaved(true) });
  };

  return (
    <section className="card settings-section" aria-labelledby="settings-album">
      <h2 id="settings-album">Album</h2>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-title`}>Title</label>
          <input
            id={`${id}-title`}
            autoComplete="off"
            value={title}
            onChange={(e) => {
              setTitle(e.target.value);
              setSaved(false);
            }}
            aria-invalid={!!titleIssue}
            aria-describedby={`${id}-title-msg`}
          />
          <span id={`${id}-title-msg`} className={titleIssue ? 'error-line' : 'field__count'} role={titleIssue ? 'alert' : undefined}>
            {titleIssue ?? `${title.trim().length} / ${limits().titleMax}`}
          </span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-description`}>
            Description <span className="muted">(optional)</span>
          </label>
          <textarea
            id={`${id}-description`}
            value={description}
            onChange={(e) => {
              setDescription(e.target.value);
              setSaved(false);
            }}
            aria-invalid={!!descriptionIssue}
            aria-describedby={`${id}-description-msg`}
          />
          <span id={`${id}-description-msg`} className={descriptionIssue ? 'error-line' : 'field__count'} role={descriptionIssue ? 'alert' : undefined}>
            {descriptionIssue ?? `${description.length} / ${limits().descriptionMax}`}
          </span>
        </div>
        <CoverPicker
          albumId={album.id}
          name={`${id}-cover`}
          value={cover}
          onChange={(next) => {
            setCover(next);
            setSaved(false);
          }}
        />
        {update.isError && <ErrorLine error={update.error} />}
        <div className="settings-row">
          <button type="submit" className="btn btn--primary" disabled={update.isPending || invalid || !changed}>
            {update.isPending ? 'Saving…' : 'Save'}
          </button>
          <span role="status" className="muted">
            {saved && !changed ? 'Saved' : ''}
          </span>
        </div>
      </form>
    </section>
  );
}
