import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { Outlet, useSearchParams } from 'react-router';
import type { Album, Item } from '../../domain/entities';
import type { ItemSort } from '../../domain/queries';
import type { SharedLink } from '../../backend/link-types';
import { formatCount } from '../../lib/format';
import { ErrorLine } from '../../ui/error-panel';
import { Icon } from '../../ui/icon';
import { SelectionBar } from '../items/selection-bar';
import { emptySelection } from '../items/selection';
import { thumbhashDataUrl } from '../../ui/thumbhash-image';
import type { AlbumView } from '../items/use-album-sections';
import { AlbumGridBody, useAlbumGrid } from '../items/use-album-grid';
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
  const queryClient = useQueryClient();
  const refreshAlbum = useCallback(() => void queryClient.invalidateQueries({ queryKey: itemKeys.album(album.id) }), [queryClient, album.id]);
  const [params] = useSearchParams();
  const sort: ItemSort = params.get('sort') === 'added' ? 'added' : 'taken';
  const view = useMemo<AlbumView>(() => ({ sort }), [sort]);
  const grid = useAlbumGrid(album.id, view, basePath);
  const { selection, setSelection } = grid;
  const { error: actionError, attempt } = useActionError();
  const albumDownload = useAlbumDownload(album);
  const downloadSelection = () => attempt(() => albumDownload.downloadSelection(grid.selectedItems()));

  const cover = coverUrl ?? (album.coverThumbhash ? thumbhashDataUrl(album.coverThumbhash) : null);
  const outlet: SharedAlbumOutletContext = { album, getItems: grid.getItems, view, close: grid.close, itemPath: grid.itemPath, download: link.originals };

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
          <select id="share-sort" className="select" value={sort} onChange={(e) => grid.setView({ sort: e.target.value === 'added' ? 'added' : null })}>
            <option value="taken">Date taken</option>
            <option value="added">Date added</option>
          </select>
        </div>
      )}
      {actionError !== null && <div style={{ padding: '0 16px' }}><ErrorLine error={actionError} /></div>}
      <AlbumGridBody
        grid={grid}
        label={album.title}
        onRetry={() => void grid.months.refetch()}
        empty={
          <div className="empty">
            <h2>This album is empty</h2>
            <p>Nothing has been added yet.</p>
          </div>
        }
      />
      {albumDownload.panel}
      <Outlet context={outlet} />
    </div>
  );
}
