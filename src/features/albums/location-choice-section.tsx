import { useId, useState, type FormEvent } from 'react';
import type { Album } from '../../domain/entities';
import { ErrorLine } from '../../ui/error-panel';
import { albumAbilities } from '../../lib/album-permissions';
import { useUpdateAlbum } from './use-albums';

const CHOICES = [
  {
    keep: false,
    key: 'remove',
    label: 'Remove location from originals (recommended)',
    about: 'Photos are uploaded without the place where they were taken: it is blanked on the device before upload, and nothing else in the file changes.',
  },
  {
    keep: true,
    key: 'keep',
    label: 'Keep originals as they are',
    about: 'Photos are uploaded exactly as taken, with their location. Visitors who open a share link then get previews only, never originals.',
  },
] as const;

/**
 * Whether originals keep their location (PRODUCT.md §6: the owner's choice). Every member sees which applies;
 * the owner changes it. A failed save keeps the choice made.
 */
export function LocationChoiceSection({ album }: { album: Album }) {
  const id = useId();
  const update = useUpdateAlbum(album.id);
  const [keep, setKeep] = useState(album.keepLocation);
  const [saved, setSaved] = useState(false);
  const changed = keep !== album.keepLocation;
  const owner = albumAbilities(album.role).chooseLocation;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!changed || update.isPending) return;
    setSaved(false);
    update.mutate({ keepLocation: keep }, { onSuccess: () => setSaved(true) });
  };
  const choose = (next: boolean) => {
    setKeep(next);
    setSaved(false);
  };

  return (
    <section className="card settings-section" aria-labelledby={`${id}-heading`} data-testid="location-choice">
      <h2 id={`${id}-heading`}>Location in originals</h2>
      {owner ? (
        <form onSubmit={submit} noValidate>
          <fieldset className="choice-list">
            <legend className="visually-hidden">Location in originals</legend>
            {CHOICES.map((c) => (
              <label key={c.key} htmlFor={`${id}-${c.key}`}>
                <input
                  id={`${id}-${c.key}`}
                  type="radio"
                  name={`${id}-location`}
                  checked={keep === c.keep}
                  onChange={() => choose(c.keep)}
                  aria-describedby={`${id}-${c.key}-about`}
                />
                <span>
                  {c.label}
                  <span id={`${id}-${c.key}-about`} className="muted choice-list__about">
                    {c.about}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          <p className="muted">Applies to photos added from now on; photos already in the album stay as they were uploaded.</p>
          {update.isError && <ErrorLine error={update.error} />}
          <div className="settings-row">
            <button type="submit" className="btn btn--primary" disabled={update.isPending || !changed}>
              {update.isPending ? 'Saving…' : 'Save'}
            </button>
            <span role="status" className="muted">
              {saved && !changed ? 'Saved' : ''}
            </span>
          </div>
        </form>
      ) : (
        <>
          <p>{album.keepLocation ? 'Originals are kept as they are, with their location.' : 'Location is removed from originals before upload.'}</p>
          <p className="muted">
            {album.keepLocation ? 'Visitors who open a share link get previews only, never originals. ' : ''}
            The album’s owner chooses this.
          </p>
        </>
      )}
    </section>
  );
}
