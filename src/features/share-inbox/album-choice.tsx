import { useId } from 'react';
import type { Album } from '../../domain/entities';
import { formatCount } from '../../lib/format';
import { albumAbilities } from '../../lib/album-permissions';

/** The albums the user may add to (PRODUCT.md §6: owner, editor, contributor). */
export function addableAlbums(albums: readonly Album[]): Album[] {
  return albums.filter((a) => albumAbilities(a.role).addItems);
}

/** One album to add the shared files to, as a list of radio buttons. */
export function AlbumChoice({ albums, value, onChange }: { albums: readonly Album[]; value: string | null; onChange: (id: string) => void }) {
  const id = useId();
  return (
    <fieldset className="choice-list share-target__albums">
      <legend>Add to album</legend>
      {albums.map((a) => (
        <label key={a.id} htmlFor={`${id}-${a.id}`}>
          <input id={`${id}-${a.id}`} type="radio" name={`${id}-album`} checked={value === a.id} onChange={() => onChange(a.id)} />
          <span>
            {a.title}
            <span className="muted choice-list__about">{formatCount(a.itemCount, 'item', 'items')}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
