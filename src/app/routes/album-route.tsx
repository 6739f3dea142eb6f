import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Outlet, useNavigate, useParams, useSearchParams } from 'react-router';
import type { ItemSort } from '../../domain/queries';
import type { Album, Item } from '../../domain/entities';
import { useBackend, useSession } from '../../backend/backend-context';
import { useMarkAlbumSeen } from '../../features/activity/use-activity';
import { albumAbilities, can } from '../../lib/album-permissions';
import { PendingUploads } from '../../features/albums/pending-uploads';
import { useAlbum } from '../../features/albums/use-albums';
import { useAlbumDownload } from '../../features/downloads/album-download';
import { UrlBatcher } from '../../shared/files/url-batcher';
import { UrlBatcherContext } from '../../shared/files/use-url';
import { albumKeys } from '../../shared/album-keys';
import { itemKeys } from '../../shared/item-keys';
import { SelectionBar } from '../../features/items/selection-bar';
import { emptySelection } from '../../features/items/selection';
import { useAlbumLive, type AlbumGone } from '../../shared/live/use-album-live';
import type { AlbumView } from '../../features/items/use-album-sections';
import { AlbumGridBody, useAlbumGrid } from '../../features/items/use-album-grid';
import { useRestoreItems, useTrashItems } from '../../features/items/use-item-actions';
import { useEditItems } from '../../features/items/use-item-edits';
import { EditSelectionDialog } from '../../features/items/edit-selection-dialog';
import { AlbumMembersContext } from '../../shared/uploader-credit';
import { useMembers } from '../../shared/use-members';
import { AlbumFilters, FilteredEmpty } from '../../features/social/album-filters';
import { SearchBox, SearchCriteria } from '../../features/search/search-form';
import { asksForSearch, hasCriteria, searchFromParams } from '../../lib/search-params';
import { useTileSocial } from '../../features/social/use-social';
import { AddFilesMenu } from '../../features/uploads/add-files-menu';
import { DropZone } from '../../features/uploads/drop-zone';
import { OthersUploading } from '../../features/uploads/others-uploading';
import { useUploadEngine } from '../../features/uploads/upload-engine-provider';
import { formatBytes, formatCount } from '../../lib/format';
import { showsWhatItHad } from '../../lib/error-policy';
import { ErrorLine, ErrorPanel, StaleNotice } from '../../ui/error-panel';
import { Icon } from '../../ui/icon';
import { useToast } from '../../ui/toast';
import { AlbumHeaderActions } from './album-header-actions';
import { useActionError } from '../../ui/use-action-error';

/** What the viewer, a child route over the grid, gets from the album screen. */
export interface AlbumOutletContext {
  album: Album;
  /** The loaded items in grid order (made on first call). */
  getItems: () => Item[];
  view: AlbumView;
  close: () => void;
}

export function AlbumRoute() {
  const { albumId = '' } = useParams();
  const album = useAlbum(albumId);
  const { files } = useBackend();
  const queryClient = useQueryClient();
  const [batcher] = useState(() => new UrlBatcher(files, undefined, undefined, queryClient));

  if (album.isPending) return <div className="page" aria-busy="true"><div className="skeleton" style={{ height: 120 }} /></div>;
  if (album.data === undefined || (album.isError && !showsWhatItHad(album.data, album.error))) {
    return (
      <div className="page page--center">
        <ErrorPanel error={album.error} onRetry={() => void album.refetch()} />
      </div>
    );
  }
  return (
    <UrlBatcherContext.Provider value={batcher}>
      <AlbumScreen album={album.data} staleError={album.isError ? album.error : null} />
    </UrlBatcherContext.Provider>
  );
}

/** `staleError`: why the album's own details could not be refreshed, while the ones loaded before are shown. */
function AlbumScreen({ album, staleError }: { album: Album; staleError: Error | null }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const trashed = params.get('view') === 'trash';
  const sort: ItemSort = params.get('sort') === 'added' ? 'added' : 'taken';
  // The filters live in the address, so a filtered album can be reloaded and shared as it is.
  const favoritesOnly = !trashed && params.get('filter') === 'favorites';
  const uploaderId = trashed ? null : params.get('by');
  const view = useMemo<AlbumView>(
    () => ({ sort, trashed, ...(favoritesOnly ? { favoritesOnly } : {}), ...(uploaderId ? { uploaderId } : {}) }),
    [sort, trashed, favoritesOnly, uploaderId],
  );
  // A search within the album (text, rating, label, kind, dates) shows its results in the same grid.
  const searching = !trashed && asksForSearch(params);
  const searchKey = searching ? params.toString() : '';
  const search = useMemo(
    () => (searchKey ? { ...searchFromParams(new URLSearchParams(searchKey)), albumId: album.id } : null),
    [searchKey, album.id],
  );
  const [criteriaOpen, setCriteriaOpen] = useState(false);
  const showCriteria = criteriaOpen || hasCriteria(params);
  const grid = useAlbumGrid(album.id, view, `/albums/${album.id}`, search);
  const { months, sections, error, selection, setSelection, setView } = grid;
  // The grid's rows loaded earlier (or kept on the device) stay when a refresh cannot reach the server.
  const gridStale = showsWhatItHad(months.data, error) ? error : null;
  const tileSocial = useTileSocial(album.id, `${sort}${trashed ? ':trash' : ''}`, sections);
  const queryClient = useQueryClient();
  // What this screen shows: the album's details and its items.
  const retryAlbum = () => {
    void queryClient.refetchQueries({ queryKey: albumKeys.detail(album.id) });
    void queryClient.refetchQueries({ queryKey: itemKeys.album(album.id) });
  };
  const toast = useToast();
  const onGone = useCallback(
    (why: AlbumGone) => {
      toast({ title: why === 'deleted' ? `“${album.title}” was deleted` : `You are no longer a member of “${album.title}”` });
      void navigate('/', { replace: true });
    },
    [toast, navigate, album.title],
  );
  const viewers = useAlbumLive(album.id, onGone);
  useMarkAlbumSeen(album.id);
  const members = useMembers(album.id);
  const engine = useUploadEngine();
  const trash = useTrashItems(album.id);
  const restore = useRestoreItems(album.id);
  const { error: actionError, attempt } = useActionError();
  const abilities = albumAbilities(album.role);
  const albumDownload = useAlbumDownload(album);
  const canAdd = abilities.addItems && !trashed;
  const session = useSession();
  const editItems = useEditItems(album.id);
  const [editing, setEditing] = useState<Item[] | null>(null);
  // §6: the owner and editors edit any item's details, a contributor those they added.
  const editable = (items: Item[]) => items.filter((i) => can(album.role, 'editItemMetadata', { own: !!session && i.uploaderId === session.userId }));

  const addFiles = useCallback(
    (list: File[]) => {
      void attempt(() => engine.enqueue(album.id, list));
    },
    [engine, album.id, attempt],
  );

  const selectedIds = [...selection.ids];
  // One move to or from the trash at a time: a second Delete press while the first is under way does nothing,
  // as the disabled buttons already ensure for clicks.
  const moving = useRef(false);
  const runOnSelection = async (action: 'trash' | 'restore' | 'download') => {
    if (action !== 'download' && moving.current) return;
    if (action === 'download') {
      await attempt(() => albumDownload.downloadSelection(grid.selectedItems()));
      return;
    }
    moving.current = true;
    if (await attempt(() => (action === 'trash' ? trash : restore).mutateAsync(selectedIds))) setSelection(emptySelection);
    moving.current = false;
  };

  const deleteRef = useRef<() => void>(() => undefined);
  useLayoutEffect(() => {
    deleteRef.current = () => !trashed && abilities.deleteSomeItems && void runOnSelection('trash');
  });
  const onDeleteKey = useCallback(() => deleteRef.current(), []);

  const outlet: AlbumOutletContext = { album, getItems: grid.getItems, view, close: grid.close };
  const total = months.data?.reduce((n, m) => n + m.count, 0);

  return (
    <div className="album-page">
      <div className="page" style={{ paddingBottom: 8 }}>
        <div className="page-header" style={{ marginBottom: 0 }}>
          <div className="page-header__text">
            <h1>{trashed ? `Trash · ${album.title}` : album.title}</h1>
            {!trashed && album.description && <p className="muted" style={{ whiteSpace: 'pre-wrap', margin: '4px 0' }}>{album.description}</p>}
            <p className="muted" style={{ margin: 0 }}>
              {trashed
                ? `${formatCount(total ?? 0, 'item', 'items')} in the trash · deleted for good after 30 days`
                : `${formatCount(album.itemCount, 'item', 'items')} · ${formatBytes(album.bytesTotal)}`}
            </p>
            {!trashed && <PendingUploads album={album} />}
            {!trashed && <OthersUploading albumId={album.id} />}
          </div>
          <AlbumHeaderActions
            album={album}
            trashed={trashed}
            canAdd={canAdd}
            viewers={viewers}
            onFiles={addFiles}
            downloadBusy={albumDownload.busy}
            onDownload={(mode, sidecars) => albumDownload.start(mode, undefined, sidecars)}
          />
        </div>
      </div>

      <EditSelectionDialog
        open={editing !== null}
        items={editing ?? []}
        onClose={() => setEditing(null)}
        onEdit={async (edit, done) => {
          await editItems(editing ?? [], edit, done);
          setEditing(null);
        }}
      />
      {selection.ids.size > 0 ? (
        <SelectionBar count={selection.ids.size} onClear={() => setSelection(emptySelection)}>
          <button type="button" className="btn" onClick={() => void runOnSelection('download')} disabled={albumDownload.busy}>
            <Icon name="download" /> Download
          </button>
          {!trashed && can(album.role, 'editItemMetadata', { own: true }) && (
            <button
              type="button"
              className="btn"
              onClick={() => {
                const mine = editable(grid.selectedItems());
                if (mine.length) setEditing(mine);
                else toast({ title: 'You can edit only the details of items you added', tone: 'error' });
              }}
            >
              <Icon name="pencil" /> Edit details
            </button>
          )}
          {abilities.deleteSomeItems &&
            (trashed ? (
              <button type="button" className="btn" onClick={() => void runOnSelection('restore')} disabled={restore.isPending || trash.isPending}>
                <Icon name="restore" /> Restore
              </button>
            ) : (
              <button type="button" className="btn" onClick={() => void runOnSelection('trash')} disabled={trash.isPending || restore.isPending}>
                <Icon name="trash" /> Move to trash
              </button>
            ))}
        </SelectionBar>
      ) : (
        <div className="album-toolbar" role="toolbar" aria-label="Album view">
          {trashed && (
            <button type="button" className="btn" onClick={() => setView({ view: null })}>
              <Icon name="back" /> Back to album
            </button>
          )}
          {!trashed && (
            <>
              <SearchBox label="Search this album" value={params.get('q') ?? ''} onChange={(q) => setView({ q: q.trim() ? q : null }, { push: !params.get('q') })} />
              <button
                type="button"
                className="btn btn--ghost"
                aria-expanded={showCriteria}
                aria-pressed={showCriteria}
                onClick={() => setCriteriaOpen(!showCriteria)}
              >
                <Icon name="filter" /> <span className="album-toolbar__word">Filters</span>
              </button>
            </>
          )}
          {!searching && (
            <>
              <label htmlFor="album-sort" className="muted">Sort</label>
              <select id="album-sort" className="select" value={sort} onChange={(e) => setView({ sort: e.target.value === 'added' ? 'added' : null })}>
                <option value="taken">Date taken</option>
                <option value="added">Date added</option>
              </select>
            </>
          )}
          {!trashed && (
            <AlbumFilters
              albumId={album.id}
              favoritesOnly={favoritesOnly}
              uploaderId={uploaderId}
              onChange={(f) => setView({ filter: f.favoritesOnly ? 'favorites' : null, by: f.uploaderId })}
            />
          )}
          <span className="album-toolbar__spacer" />
          {!trashed && (
            <button type="button" className="btn btn--ghost" onClick={() => setView({ view: 'trash' })}>
              <Icon name="trash" /> <span className="album-toolbar__word">Trash</span>
            </button>
          )}
          {!trashed && showCriteria && <SearchCriteria params={params} onChange={(patch) => setView(patch)} />}
        </div>
      )}
      {actionError !== null && <div style={{ padding: '0 16px' }}><ErrorLine error={actionError} /></div>}
      {(staleError ?? gridStale) && (
        <div style={{ padding: '0 16px' }}>
          <StaleNotice error={staleError ?? gridStale} onRetry={retryAlbum} />
        </div>
      )}
      <AlbumMembersContext.Provider value={members.data}>
        <AlbumGridBody
          grid={grid}
          label={trashed ? 'Trash' : album.title}
          social={tileSocial}
          hideError={!!gridStale}
          onRetry={() => void queryClient.refetchQueries({ queryKey: itemKeys.album(album.id) })}
          onDeleteKey={onDeleteKey}
          empty={
            searching ? (
              <div className="empty" data-testid="search-empty">
                <h2>Nothing in this album matches</h2>
                <p>Try fewer words, the start of a word, or other filters.</p>
                <button type="button" className="btn" onClick={() => setView({ q: null, rating: null, label: null, kind: null, from: null, to: null })}>
                  Clear the search
                </button>
              </div>
            ) : favoritesOnly || uploaderId ? (
              <FilteredEmpty albumId={album.id} favoritesOnly={favoritesOnly} uploaderId={uploaderId} onClear={() => setView({ filter: null, by: null })} />
            ) : (
              <div className="empty">
                {trashed ? (
                  <>
                    <h2>The trash is empty</h2>
                    <p>Items you delete stay here for 30 days.</p>
                  </>
                ) : (
                  <>
                    <h2>This album is empty</h2>
                    <p>{canAdd ? 'Drop photos, videos, files or whole folders here, paste them, or use Add.' : 'Nothing has been added yet.'}</p>
                    {canAdd && <AddFilesMenu onFiles={addFiles} />}
                  </>
                )}
              </div>
            )
          }
        />
      </AlbumMembersContext.Provider>
      {canAdd && <DropZone onFiles={addFiles} />}
      {albumDownload.panel}
      <Outlet context={outlet} />
    </div>
  );
}
