/**
 * The state of an album's grid, the same for a member and for a link's visitor: which months are loaded, the
 * items in order, the selection, and the way to and from the viewer. Built once here, so both album screens
 * (app/routes/album-route.tsx, link-page/shared-album.tsx) show and select items alike.
 */
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { Item } from '../../domain/entities';
import type { SearchFilter } from '../../domain/queries';
import { ErrorPanel } from '../../ui/error-panel';
import { AlbumGrid } from './album-grid';
import { orderedItems } from './grid-model';
import { emptySelection, prune, type Selection } from './selection';
import { useAlbumSections, type AlbumView } from './use-album-sections';
import { useSearchSections } from './use-search-sections';
import type { TileSocial } from '../../shared/social-keys';

export type AlbumGridState = ReturnType<typeof useAlbumGrid>;

/**
 * `basePath`: the album's address (`/albums/{id}`, or the link's page); its items open beneath it (`itemPath` another
 * place, as the search across albums does). `search`: the grid shows that search's results instead of the album's
 * months (an album's own search carries its `albumId`).
 */
export function useAlbumGrid(albumId: string, view: AlbumView, basePath: string, search: SearchFilter | null = null, itemPathOf?: (item: Item) => string) {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [wanted, setWanted] = useState<ReadonlySet<string>>(new Set());
  const album = useAlbumSections(albumId, view, wanted, search === null);
  const found = useSearchSections(search, wanted);
  const { months, sections, error } = search === null ? album : found;
  // The loaded items in order, made only when something needs them (the viewer, a selection).
  const getItems = useMemo(() => {
    let items: Item[] | undefined;
    return () => (items ??= orderedItems(sections));
  }, [sections]);
  const [rawSelection, setSelection] = useState<Selection>(emptySelection);
  const selection = useMemo(
    () => (rawSelection.ids.size === 0 ? rawSelection : prune(rawSelection, new Set(getItems().map((i) => i.id)))),
    [rawSelection, getItems],
  );
  const selectedItems = useCallback(() => getItems().filter((i) => selection.ids.has(i.id)), [getItems, selection]);

  // The view (sort, filters, trash) lives in the address, so it can be reloaded and shared as it is.
  const suffix = params.toString() ? `?${params.toString()}` : '';
  const itemPath = useCallback(
    (id: string) => {
      const item = itemPathOf ? getItems().find((i) => i.id === id) : undefined;
      return item && itemPathOf ? itemPathOf(item) : `${basePath}/items/${id}`;
    },
    [basePath, itemPathOf, getItems],
  );
  const open = useCallback((item: Item) => void navigate(`${itemPath(item.id)}${suffix}`, { state: { fromGrid: true } }), [navigate, itemPath, suffix]);
  const close = useCallback(() => void navigate(`${basePath}${suffix}`), [navigate, basePath, suffix]);
  /**
   * Another view: the address changes (null removes a parameter) and the selection is cleared. `push`: a new
   * entry in the history (a search begun), so Back returns to what was shown before.
   */
  const setView = (patch: Record<string, string | null | undefined>, { push = false } = {}) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) next.delete(k);
      else if (v !== undefined) next.set(k, v);
    }
    setSelection(emptySelection);
    setParams(next, { replace: !push });
  };

  return { months, sections, error, sort: search === null ? view.sort : ('taken' as const), setWanted, getItems, selection, setSelection, selectedItems, itemPath, open, close, setView, searching: search === null ? null : found };
}

const noDelete = () => undefined;

/**
 * The grid, or what stands in its place: the error that kept it from loading, a skeleton, or `empty` when the
 * view holds nothing.
 */
export function AlbumGridBody({ grid, label, empty, social, onRetry, onDeleteKey = noDelete, hideError = false }: {
  grid: AlbumGridState;
  label: string;
  empty: ReactNode;
  social?: TileSocial;
  onRetry: () => void;
  onDeleteKey?: () => void;
  /** The error is shown elsewhere (with what was loaded before it). */
  hideError?: boolean;
}) {
  if (grid.error && !hideError) return <div className="page"><ErrorPanel error={grid.error} onRetry={onRetry} /></div>;
  if (grid.months.isPending) return <div className="page" aria-busy="true"><div className="skeleton" style={{ height: 240 }} /></div>;
  if (grid.sections.length === 0) return <div className="page">{empty}</div>;
  return (
    <AlbumGrid
      label={label}
      sections={grid.sections}
      sort={grid.sort}
      social={social}
      selection={grid.selection}
      onSelectionChange={grid.setSelection}
      onOpen={grid.open}
      onWantedMonths={grid.setWanted}
      onDeleteKey={onDeleteKey}
    />
  );
}
