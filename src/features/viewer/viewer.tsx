import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { Album, Item } from '../../domain/entities';
import { useAlbumBackend, useSession } from '../../backend/backend-context';
import { formatDateTime, formatTaken, safeFilename } from '../../lib/format';
import { ErrorLine, ErrorPanel } from '../../ui/error-panel';
import { Icon } from '../../ui/icon';
import { useObjectUrl } from '../../shared/files/use-url';
import { can } from '../../lib/album-permissions';
import { itemKeys } from '../../shared/item-keys';
import type { AlbumView } from '../items/use-album-sections';
import { downloadItems } from '../downloads/download-items';
import { useRestoreItems, useTrashItems } from '../items/use-item-actions';
import { useEditItems } from '../items/use-item-edits';
import { CommentsPanel } from '../social/comments-panel';
import { FavoriteButton } from '../social/favorite-button';
import { useOpenItemSocial, useSetFavorite } from '../social/use-social';
import { DetailsPanel } from './details-panel';
import { FilePreview } from './file-preview';
import { ZoomableImage } from './zoomable-image';
import { ANIMATED_TYPES, BROWSER_IMAGES } from '../../lib/image-types';

/**
 * The full-screen viewer, a route over the grid: Back (or Escape) closes it, arrow keys and swipes step through
 * the album in grid order, and stepping replaces the history entry so one Back always returns to the grid.
 */
export function Viewer({ album, getItems, view, itemId, close, itemPath = (id) => `/albums/${album.id}/items/${id}`, social: withSocial = true, download = true, showAlbum = false }: {
  album: Album;
  getItems: () => Item[];
  view: AlbumView;
  itemId: string;
  close: () => void;
  /** Where an item of this album opens (a link's visitor has its own addresses). */
  itemPath?: (itemId: string) => string;
  /** Comments and hearts: members only. */
  social?: boolean;
  /** The original can be downloaded (a link may not allow it). */
  download?: boolean;
  /** Name the album the item is in, with a way there (results of a search across albums). */
  showAlbum?: boolean;
}) {
  const backend = useAlbumBackend();
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  // One side panel at a time: the details or the comments.
  const [panel, setPanel] = useState<'details' | 'comments' | null>(null);
  const showDetails = panel === 'details';
  const togglePanel = useCallback((which: 'details' | 'comments') => setPanel((p) => (p === which ? null : which)), []);
  const [zoomed, setZoomed] = useState(false);
  const dialogRef = useRef<HTMLDivElement>(null);
  const trash = useTrashItems(album.id);
  const restore = useRestoreItems(album.id);
  // An action's error belongs to the item it was tried on: stepping to another item leaves it behind.
  const [failed, setFailed] = useState<{ itemId: string; error: unknown } | null>(null);
  const actionError = failed?.itemId === itemId ? failed.error : null;

  const items = getItems();
  const index = items.findIndex((i) => i.id === itemId);
  const fromList = index >= 0 ? items[index] : undefined;
  const fetched = useQuery({
    queryKey: itemKeys.detail(album.id, itemId),
    queryFn: ({ signal }) => backend.items.getItem(album.id, itemId, { signal }),
    enabled: !fromList,
  });
  const item = fromList ?? fetched.data;
  const prev = index > 0 ? items[index - 1] : undefined;
  const next = index >= 0 ? items[index + 1] : undefined;

  // The item shown, or the one a step has asked for and the router has not rendered yet: navigations render in
  // a transition, so a quick second key press can come before the first one's item shows. Steps count from here.
  const shownId = useRef(itemId);
  const pendingId = useRef<string | null>(null);
  useLayoutEffect(() => {
    shownId.current = itemId;
    if (pendingId.current === itemId) pendingId.current = null;
  }, [itemId]);

  const search = location.search;
  const go = useCallback(
    (target: Item | undefined) => {
      if (!target) return;
      pendingId.current = target.id;
      setFailed(null);
      void navigate(`${itemPath(target.id)}${search}`, { replace: true, state: location.state });
    },
    [navigate, itemPath, search, location.state],
  );
  const step = useCallback(
    (dir: -1 | 1) => {
      const list = getItems();
      const at = list.findIndex((i) => i.id === (pendingId.current ?? shownId.current));
      go(at >= 0 ? list[at + dir] : undefined);
    },
    [getItems, go],
  );
  const exit = useCallback(() => {
    if ((location.state as { fromGrid?: boolean } | null)?.fromGrid) void navigate(-1);
    else close();
  }, [location.state, navigate, close]);

  const social = useOpenItemSocial(album.id, itemId);
  const setFavorite = useSetFavorite(album.id, itemId);
  const mayHeart = withSocial && can(album.role, 'comment') && !view.trashed;
  const toggleFavorite = useCallback(() => {
    if (!mayHeart) return;
    setFailed(null);
    setFavorite.mutate(!(social?.myFavorite ?? false), { onError: (error) => setFailed({ itemId, error }) });
  }, [mayHeart, setFavorite, social?.myFavorite, itemId]);

  // Details are edited by those §6 allows, of items in the album (not the trash), where the backend can write.
  const mayEdit = useCallback(
    (it: Item) => !!backend.itemWrites && !view.trashed && it.status === 'ready' && can(album.role, 'editItemMetadata', { own: !!session && it.uploaderId === session.userId }),
    [backend.itemWrites, view.trashed, album.role, session],
  );
  const edit = useEditItems(album.id);
  const rate = useCallback(
    (stars: number) => {
      if (!item || !mayEdit(item)) return;
      setFailed(null);
      edit([item], { rating: stars }, stars ? `Rated ${stars} star${stars === 1 ? '' : 's'}` : 'Rating removed').catch((error: unknown) => setFailed({ itemId: item.id, error }));
    },
    [item, mayEdit, edit],
  );

  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      // Keys typed into a comment are words, not commands.
      if (isTyping(e.target)) return;
      if (e.key === 'Escape') exit();
      else if (e.key === 'ArrowLeft' && !zoomed) step(-1);
      else if (e.key === 'ArrowRight' && !zoomed) step(1);
      else if (e.key === 'i') togglePanel('details');
      else if (e.key === 'f') toggleFavorite();
      // 0–5 rate the photo, as in Lightroom and darktable.
      else if (/^[0-5]$/.test(e.key)) rate(Number(e.key));
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [exit, step, zoomed, togglePanel, toggleFavorite, rate]);

  // A layout effect, so focus is in the dialog by the time it shows: a key pressed as soon as it appears must
  // reach the viewer, not the grid tile that opened it (the grid would take an arrow key as its own).
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const restoreInert = dialogRef.current ? inertOutside(dialogRef.current) : () => undefined;
    dialogRef.current?.focus();
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = previous;
      restoreInert();
    };
  }, []);
  // On close, focus goes back to the grid: to the tile of the item last shown, else to whatever opened the
  // viewer. After the commit that removes the viewer: done in the layout cleanup above, the tile had lost it
  // again by the time the grid showed.
  useEffect(
    () => () => {
      const tile = document.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(shownId.current)}"]`);
      const back = opener.current;
      const target = tile ?? (back?.isConnected ? back : null);
      target?.focus();
    },
    [],
  );

  const canDelete = !!item && can(album.role, 'deleteItems', { own: item.uploaderId === session?.userId });
  const act = async (fn: () => Promise<unknown>) => {
    setFailed(null);
    try {
      await fn();
    } catch (error) {
      setFailed({ itemId, error });
    }
  };
  const removeFromView = async (action: 'trash' | 'restore') => {
    if (!item) return;
    const target = next ?? prev;
    await (action === 'trash' ? trash : restore).mutateAsync([item.id]);
    if (target) go(target);
    else exit();
  };

  return (
    <div ref={dialogRef} className="viewer" role="dialog" aria-modal="true" aria-label={item ? safeFilename(item.filename) : 'Viewer'} tabIndex={-1}>
      <div className="viewer__stage">
        <div className="viewer__bar">
          <button type="button" className="btn btn--icon" aria-label="Close" onClick={exit}>
            <Icon name="back" />
          </button>
          <div className="viewer__title">
            {item && (
              <>
                <div>{safeFilename(item.filename)}</div>
                <small style={{ opacity: 0.75 }}>
                  {item.takenAt ? formatTaken(item.takenAt, item.metadata.takenOffset) : formatDateTime(item.createdAt)}
                  {showAlbum && (
                    <>
                      {' · in '}
                      <Link to={`/albums/${album.id}`} className="viewer__album">
                        {album.title}
                      </Link>
                    </>
                  )}
                </small>
              </>
            )}
          </div>
          {item && (
            <>
              {download && (
                <button type="button" className="btn btn--icon" aria-label="Download original" onClick={() => void act(() => downloadItems(backend, [item]))}>
                  <Icon name="download" />
                </button>
              )}
              {canDelete &&
                (view.trashed ? (
                  <button type="button" className="btn" onClick={() => void act(() => removeFromView('restore'))} disabled={restore.isPending}>
                    <Icon name="restore" /> Restore
                  </button>
                ) : (
                  <button type="button" className="btn btn--icon" aria-label="Move to trash" onClick={() => void act(() => removeFromView('trash'))} disabled={trash.isPending}>
                    <Icon name="trash" />
                  </button>
                ))}
              {mayHeart && (
                <FavoriteButton albumId={album.id} itemId={item.id} mine={social?.myFavorite ?? false} count={social?.favoriteCount ?? 0} onToggle={toggleFavorite} />
              )}
              {withSocial && (
              <button
                type="button"
                className="btn viewer__comments-toggle"
                aria-label={social?.commentCount ? `Comments (${social.commentCount})` : 'Comments'}
                aria-pressed={panel === 'comments'}
                data-testid="comments-toggle"
                onClick={() => togglePanel('comments')}
              >
                <Icon name="comment" />
                {social?.commentCount ? <span aria-hidden="true">{social.commentCount}</span> : null}
              </button>
              )}
              <button type="button" className="btn btn--icon" aria-label="Details" aria-pressed={showDetails} onClick={() => togglePanel('details')}>
                <Icon name="info" />
              </button>
            </>
          )}
        </div>
        {actionError !== null && (
          <div style={{ position: 'absolute', top: 64, left: 16, zIndex: 3 }}>
            <ErrorLine error={actionError} />
          </div>
        )}
        {prev && (
          <button type="button" className="btn btn--icon viewer__nav viewer__nav--prev" aria-label="Previous" onClick={() => step(-1)}>
            <Icon name="left" />
          </button>
        )}
        {next && (
          <button type="button" className="btn btn--icon viewer__nav viewer__nav--next" aria-label="Next" onClick={() => step(1)}>
            <Icon name="right" />
          </button>
        )}
        {item ? (
          <Media key={item.id} item={item} onSwipe={(d) => step(d > 0 ? 1 : -1)} onZoom={setZoomed} />
        ) : fetched.isError ? (
          <ErrorPanel error={fetched.error} />
        ) : (
          <div aria-busy="true" />
        )}
      </div>
      {showDetails && item && <DetailsPanel item={item} editable={mayEdit(item)} />}
      {panel === 'comments' && item && <CommentsPanel album={album} itemId={item.id} />}
    </div>
  );
}

/** Whether a key press lands in a text field (a comment box), where letters are text and arrows move the caret. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || (target instanceof HTMLInputElement && target.type !== 'checkbox' && target.type !== 'radio' && target.type !== 'button');
}

/**
 * Makes everything but `el` inert, as a modal <dialog> would: the page under the full-screen viewer is out of
 * reach of Tab and of screen readers. Returns the undo.
 */
function inertOutside(el: HTMLElement): () => void {
  const made: HTMLElement[] = [];
  for (let node: HTMLElement | null = el; node && node !== document.body; node = node.parentElement) {
    for (const sibling of node.parentElement?.children ?? []) {
      if (sibling !== node && sibling instanceof HTMLElement && !sibling.inert) {
        sibling.inert = true;
        made.push(sibling);
      }
    }
  }
  return () => {
    for (const m of made) m.inert = false;
  };
}

function Media({ item, onSwipe, onZoom }: { item: Item; onSwipe: (dir: -1 | 1) => void; onZoom: (zoomed: boolean) => void }) {
  const preview = useObjectUrl(item.previewKey);
  const [wantOriginal, setWantOriginal] = useState(false);
  // A GIF, an APNG or an animated WebP plays: the original is shown, not its still preview (whose first frame is
  // the thumbnail).
  const plays = item.kind === 'image' && (ANIMATED_TYPES.has(item.mime) || item.metadata.animated === true);
  // A file stored compressed has no URL worth making: only its inflated bytes are the file (file-preview.tsx).
  const needsOriginal = item.kind === 'video' || (item.kind === 'file' && !item.storedEncoding) || plays || (wantOriginal && BROWSER_IMAGES.has(item.mime)) || (item.kind === 'image' && !item.previewKey);
  const original = useObjectUrl(needsOriginal ? item.originalKey : null);
  const onZoomChange = useCallback(
    (s: number) => {
      onZoom(s > 1);
      // Past about 1.5× the preview runs out of pixels: switch to the original.
      if (s > 1.5) setWantOriginal(true);
    },
    [onZoom],
  );

  if (item.kind === 'video') {
    return original ? (
      <video src={original} poster={preview} controls playsInline preload="metadata" aria-label={safeFilename(item.filename)} />
    ) : (
      <div aria-busy="true" />
    );
  }
  if (item.kind === 'image' && (preview || original)) {
    // Zoomed in, the original, if the browser can show it (not HEIC outside Safari, never SVG inline).
    const src = (plays || wantOriginal) && original && BROWSER_IMAGES.has(item.mime) ? original : (preview ?? original);
    return src ? <ZoomableImage src={src} alt={safeFilename(item.filename)} onSwipe={onSwipe} onZoomChange={onZoomChange} /> : null;
  }
  return <FilePreview item={item} url={original} />;
}
