import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Outlet, useSearchParams } from 'react-router';
import type { Item } from '../../domain/entities';
import type { SearchFilter } from '../../domain/queries';
import { useBackend, useSession } from '../../backend/backend-context';
import { AlbumGridBody, useAlbumGrid } from '../../features/items/use-album-grid';
import type { AlbumView } from '../../features/items/use-album-sections';
import { AddedByFilter } from '../../features/search/added-by-filter';
import { SearchBox, SearchCriteria } from '../../features/search/search-form';
import { hasCriteria, searchFromParams } from '../../lib/search-params';
import { useSearchLive } from '../../features/search/use-search-live';
import { searchKeys } from '../../shared/search-keys';
import { UrlBatcher } from '../../shared/files/url-batcher';
import { UrlBatcherContext } from '../../shared/files/use-url';
import { formatCount } from '../../lib/format';
import { Icon } from '../../ui/icon';

/** What the viewer over the results gets from the search screen. */
export interface SearchOutletContext {
  getItems: () => Item[];
  itemPath: (itemId: string) => string;
  close: () => void;
  view: AlbumView;
}

const VIEW: AlbumView = { sort: 'taken', trashed: false };
const itemPathOf = (item: Item) => `/search/albums/${item.albumId}/items/${item.id}`;

/**
 * Search across every album of the person (PRODUCT.md §2 `/search`): the query lives in the address (`q`, `rating`,
 * `label`, `kind`, `from`, `to`, `filter=favorites`, `by`), results show in the album's grid and open in its viewer.
 */
export function SearchRoute() {
  const { files } = useBackend();
  const queryClient = useQueryClient();
  const [batcher] = useState(() => new UrlBatcher(files, undefined, undefined, queryClient));
  return (
    <UrlBatcherContext.Provider value={batcher}>
      <SearchScreen />
    </UrlBatcherContext.Provider>
  );
}

function SearchScreen() {
  const { capabilities } = useBackend();
  const [params] = useSearchParams();
  const session = useSession();
  const queryClient = useQueryClient();
  const key = params.toString();
  // `by` names who added the items; `mine=1`, from before anyone else could be named, is oneself.
  const addedBy = params.get('by') || (params.get('mine') === '1' ? (session?.userId ?? null) : null);
  const filter = useMemo<SearchFilter | null>(() => {
    const f = searchFromParams(new URLSearchParams(key));
    delete f.uploaderId;
    if (addedBy) f.uploaderId = addedBy;
    // Nothing asked: nothing searched (every item of every album is not an answer to anything).
    return Object.keys(f).length ? f : null;
  }, [key, addedBy]);
  const grid = useAlbumGrid('', VIEW, '/search', filter, itemPathOf);
  useSearchLive(filter !== null);
  const [criteriaOpen, setCriteriaOpen] = useState(false);
  const showCriteria = criteriaOpen || hasCriteria(params);
  const favoritesOnly = params.get('filter') === 'favorites';
  const loaded = grid.sections.reduce((n, s) => n + s.count, 0);
  const outlet: SearchOutletContext = { getItems: grid.getItems, itemPath: grid.itemPath, close: grid.close, view: VIEW };

  return (
    <div className="album-page">
      <div className="page" style={{ paddingBottom: 8 }}>
        <div className="page-header" style={{ marginBottom: 0 }}>
          <div className="page-header__text">
            <h1>Search</h1>
            <p className="muted" style={{ margin: 0 }} aria-live="polite">
              {filter === null
                ? 'Every album you are in: names, titles, descriptions, keywords, cameras and lenses.'
                : grid.months.isPending
                  ? 'Searching…'
                  : `${formatCount(loaded, 'item', 'items')}${grid.searching?.more ? ' so far' : ''}`}
            </p>
          </div>
        </div>
      </div>
      <div className="album-toolbar search-toolbar" role="toolbar" aria-label="Search">
        <SearchBox label="Search your albums" value={params.get('q') ?? ''} onChange={(q) => grid.setView({ q: q.trim() ? q : null }, { push: !params.get('q') })} autoFocus />
        <button type="button" className="btn btn--ghost" aria-expanded={showCriteria} aria-pressed={showCriteria} onClick={() => setCriteriaOpen(!showCriteria)}>
          <Icon name="filter" /> <span className="album-toolbar__word">Filters</span>
        </button>
        <button type="button" className="btn btn--ghost" aria-pressed={favoritesOnly} onClick={() => grid.setView({ filter: favoritesOnly ? null : 'favorites' })}>
          <Icon name="heart" filled={favoritesOnly} /> <span className="album-toolbar__word">Favourites</span>
        </button>
        {capabilities.sharing.members && session && (
          <AddedByFilter value={addedBy} me={session.userId} onChange={(by) => grid.setView({ by, mine: null })} />
        )}
        {showCriteria && <SearchCriteria params={params} onChange={(patch) => grid.setView(patch)} />}
      </div>
      {filter === null ? (
        <div className="page">
          <div className="empty">
            <h2>Find a photo in any album</h2>
            <p>Type a name, a word of a title or a keyword, a camera or a lens; or pick a rating, a label or dates.</p>
          </div>
        </div>
      ) : (
        <AlbumGridBody
          grid={grid}
          label="Search results"
          onRetry={() => void queryClient.refetchQueries({ queryKey: searchKeys.all })}
          empty={
            <div className="empty" data-testid="search-empty">
              <h2>No matches</h2>
              <p>Try fewer words, the start of a word, or other filters.</p>
            </div>
          }
        />
      )}
      <Outlet context={outlet} />
    </div>
  );
}
