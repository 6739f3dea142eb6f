import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Outlet, useNavigate, useSearchParams } from 'react-router';
import type { Album, Item } from '../../domain/entities';
import type { ItemSort } from '../../domain/queries';
import type { SharedLink } from '../../backend/link-types';
import { formatCount } from '../../lib/format';
import { ErrorLine, ErrorPanel } from '../../ui/error-panel';
import { Icon } from '../../ui/icon';
import { AlbumGrid } from '../items/album-grid';
import { orderedItems } from '../items/grid-model';
import { SelectionBar } from '../items/selection-bar';
import { emptySelection, prune, type Selection } from '../items/selection';
import { thumbhashDataUrl } from '../../ui/thumbhash-image';
import { useAlbumSections, type AlbumView } from '../items/use-album-sections';
import { itemKeys } from '../../shared/item-keys';
import { GuestUploads } from './guest-uploads';
import { AlbumDownloadMenu, useAlbumDownload } from '../downloads/album-download';
import { useActionError } from '../../ui/use-action-error';

/** What the viewer over a shared album gets from the page. */
export interface SharedAlbumOutletContext {
  album: Album;
  getItems: () => Item[];
  view: AlbumView;
  close: () => void;
  itemPath: (itemId: string) => string;
  /** The viewer offers the original: the link allows downloads and the album serves originals without location. */
  download: boolean;
}

/**
 * A shared album as its link's visitor sees it: title, description and cover, the same month-by-month grid
 * and viewer members have, and nothing of an account (no members, comments, hearts or settings).
 */
export function SharedAlbum({ album, link, coverUrl, basePath, token, visit }: {
  album: Album;
  link: SharedLink;
  coverUrl: string | null;
  basePath: string;
  /** The link's token and the visit share-open gave: guests add their files with them. */
  token: string;
  visit: string;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const refreshAlbum = useCallback(() => void queryClient.invalidateQueries({ queryKey: itemKeys.album(album.id) }), [queryClient, album.id]);
  const [params, setParams] = useSearchParams();
  const sort: ItemSort = params.get('sort') === 'added' ? 'added' : 'taken';
  const view = useMemo<AlbumView>(() => ({ sort }), [sort]);
  const [wanted, setWanted] = useState<ReadonlySet<string>>(new Set());
  const { months, sections, error } = useAlbumSections(album.id, view, wanted);
  const getItems = useMemo(() => {
    let items: Item[] | undefined;
    return () => (items ??= orderedItems(sections));
  }, [sections]);
  const [rawSelection, setSelection] = useState<Selection>(emptySelection);
  const selection = useMemo(
    () => (rawSelection.ids.size === 0 ? rawSelection : prune(rawSelection, new Set(getItems().map((i) => i.id)))),
    [rawSelection, getItems],
  );
  const { error: actionError, attempt } = useActionError();

  const suffix = params.toString() ? `?${params.toString()}` : '';
  const itemPath = useCallback((id: string) => `${basePath}/items/${id}`, [basePath]);
  const open = useCallback((item: Item) => void navigate(`${itemPath(item.id)}${suffix}`, { state: { fromGrid: true } }), [navigate, itemPath, suffix]);
  const close = useCallback(() => void navigate(`${basePath}${suffix}`), [navigate, basePath, suffix]);
  const noDelete = useCallback(() => undefined, []);
  const setSort = (next: ItemSort) => {
    const p = new URLSearchParams(params);
    if (next === 'added') p.set('sort', 'added');
    else p.delete('sort');
    setSelection(emptySelection);
    setParams(p, { replace: true });
  };
  const albumDownload = useAlbumDownload(album);
  const downloadSelection = () => attempt(() => albumDownload.downloadSelection(getItems().filter((i) => selection.ids.has(i.id))));

  const cover = coverUrl ?? (album.coverThumbhash ? thumbhashDataUrl(album.coverThumbhash) : null);
  const outlet: SharedAlbumOutletContext = { album, getItems, view, close, itemPath, download: link.originals };

  return (
    <div className="album-page share-album">
      <header className="page share-album__header">
        {cover && (
          <img
            className="share-album__cover"
            src={cover}
            alt=""
            style={album.coverThumbhash ? { backgroundImage: `url(${thumbhashDataUrl(album.coverThumbhash) ?? ''})` } : undefined}
          />
        )}
        <div className="page-header__text">
          <p className="invite-page__brand share-album__brand">
            <img src="/icon.svg" alt="" width={20} height={20} /> Shared with Shoebox
          </p>
          <h1>{album.title}</h1>
          {album.description && <p className="muted" style={{ whiteSpace: 'pre-wrap', margin: '4px 0' }}>{album.description}</p>}
          <p className="muted" style={{ margin: 0 }}>{formatCount(album.itemCount, 'item', 'items')}</p>
        </div>
        {link.allowDownload && (
          <div className="page-header__actions" data-testid="share-download-area">
            {link.originals ? (
              <AlbumDownloadMenu busy={albumDownload.busy} disabled={album.itemCount === 0} onStart={(mode) => albumDownload.start(mode)} />
            ) : (
              <span className="muted">This album keeps where its photos were taken, so its link shows previews only.</span>
            )}
          </div>
        )}
      </header>

      {link.allowGuestUpload && (
        <div className="page share-album__guests" data-testid="share-guest-uploads">
          <GuestUploads token={token} visit={visit} link={link} onChanged={refreshAlbum} />
        </div>
      )}

      {selection.ids.size > 0 ? (
        <SelectionBar count={selection.ids.size} onClear={() => setSelection(emptySelection)}>
          {link.originals && (
            <button type="button" className="btn" onClick={() => void downloadSelection()} disabled={albumDownload.busy}>
              <Icon name="download" /> Download
            </button>
          )}
        </SelectionBar>
      ) : (
        <div className="album-toolbar" role="toolbar" aria-label="Album view">
          <label htmlFor="share-sort" className="muted">Sort</label>
          <select id="share-sort" className="select" value={sort} onChange={(e) => setSort(e.target.value === 'added' ? 'added' : 'taken')}>
            <option value="taken">Date taken</option>
            <option value="added">Date added</option>
          </select>
        </div>
      )}
      {actionError !== null && <div style={{ padding: '0 16px' }}><ErrorLine error={actionError} /></div>}
      {error ? (
        <div className="page"><ErrorPanel error={error} onRetry={() => void months.refetch()} /></div>
      ) : months.isPending ? (
        <div className="page" aria-busy="true"><div className="skeleton" style={{ height: 240 }} /></div>
      ) : sections.length === 0 ? (
        <div className="page">
          <div className="empty">
            <h2>This album is empty</h2>
            <p>Nothing has been added yet.</p>
          </div>
        </div>
      ) : (
        <AlbumGrid
          label={album.title}
            sections={sections}
            selection={selection}
            onSelectionChange={setSelection}
            onOpen={open}
            onWantedMonths={setWanted}
            onDeleteKey={noDelete}
          />
      )}
      {albumDownload.panel}
      <Outlet context={outlet} />
    </div>
  );
}
