import { Icon } from '../../ui/icon';
import { useMembers } from '../../shared/use-members';

export interface AlbumFilter {
  favoritesOnly: boolean;
  uploaderId: string | null;
}

/**
 * The album's filters: one's own favourites, and the items one person added (offered once the album has more
 * than one member; on this device everything is one's own, so that choice would change nothing).
 */
export function AlbumFilters({ albumId, favoritesOnly, uploaderId, onChange }: AlbumFilter & { albumId: string; onChange: (f: AlbumFilter) => void }) {
  const members = useMembers(albumId);
  const people = members.data ?? [];
  const offerPeople = people.length > 1 || (uploaderId !== null && people.length > 0);
  return (
    <span className="album-filters">
      <button
        type="button"
        className="btn btn--ghost"
        aria-pressed={favoritesOnly}
        data-testid="filter-favorites"
        onClick={() => onChange({ favoritesOnly: !favoritesOnly, uploaderId })}
      >
        <Icon name="heart" filled={favoritesOnly} /> <span className="album-toolbar__word">Favourites</span>
      </button>
      {offerPeople && (
        <>
          <label htmlFor="album-added-by" className="muted">Added by</label>
          <select
            id="album-added-by"
            className="select"
            value={uploaderId ?? ''}
            onChange={(e) => onChange({ favoritesOnly, uploaderId: e.target.value || null })}
          >
            <option value="">Anyone</option>
            {people.map((m) => (
              <option key={m.userId} value={m.userId}>
                {m.displayName || 'Someone'}
              </option>
            ))}
          </select>
        </>
      )}
    </span>
  );
}

/** What a filtered album shows when nothing matches, and the way back to everything. */
export function FilteredEmpty({ albumId, favoritesOnly, uploaderId, onClear }: { albumId: string; favoritesOnly: boolean; uploaderId: string | null; onClear: () => void }) {
  const members = useMembers(albumId);
  const name = uploaderId ? (members.data?.find((m) => m.userId === uploaderId)?.displayName ?? 'this person') : null;
  const title = favoritesOnly && name ? `None of your favourites were added by ${name}` : favoritesOnly ? 'No favourites yet' : `Nothing added by ${name}`;
  return (
    <div className="empty" data-testid="filtered-empty">
      <h2>{title}</h2>
      <p>{favoritesOnly ? 'Open a photo and press the heart (or f) to add it to your favourites.' : 'Items this person adds will show here.'}</p>
      <button type="button" className="btn" onClick={onClear}>
        Show everything
      </button>
    </div>
  );
}
