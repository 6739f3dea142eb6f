import { useMutation, useQueries, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { requirePort, useAlbumBackend, useBackend } from '../../backend/backend-context';
import type { SocialPort } from '../../backend/ports';
import type { Favoriter, Item, ItemSocial } from '../../domain/entities';
import { applyCommentDeleted, applyCommentSaved } from '../../shared/live/apply-social-change';
import { socialKeys, type TileSocial } from '../../shared/social-keys';

export function useComments(albumId: string, itemId: string) {
  const { social } = useBackend();
  return useQuery({ queryKey: socialKeys.comments(albumId, itemId), queryFn: ({ signal }) => social.listComments(albumId, itemId, { signal }) });
}

export function useAddComment(albumId: string, itemId: string) {
  const { social } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => social.addComment(albumId, itemId, body),
    onSuccess: (comment) => applyCommentSaved(qc, comment, true),
  });
}

export function useEditComment(albumId: string) {
  const { social } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: string }) => social.editComment(albumId, id, body),
    onSuccess: (comment) => applyCommentSaved(qc, comment, false),
  });
}

export function useDeleteComment(albumId: string) {
  const { social } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => social.deleteComment(albumId, id),
    onSuccess: (_, id) => applyCommentDeleted(qc, albumId, id, false),
  });
}

export function useFavoriters(albumId: string, itemId: string, enabled: boolean) {
  const { social } = useBackend();
  return useQuery({ queryKey: socialKeys.favoriters(albumId, itemId), queryFn: ({ signal }) => social.listFavoriters(albumId, itemId, { signal }), enabled });
}

/**
 * The album's tile map as a query, for every observer of it alike: it is only ever written (setQueryData), and
 * each write is a new map, so comparing the new map with the old one entry by entry (structural sharing) finds
 * nothing to share and costs what the map holds — a third of what a scroll allocated.
 */
function tilesQuery(albumId: string) {
  return { queryKey: socialKeys.tiles(albumId), queryFn: () => ({}) as TileSocial, staleTime: Infinity, structuralSharing: false } as const;
}

/** One item's counts and own heart from the album's tile map (tiles get theirs as a prop from the grid). */
function useItemSocial(albumId: string, itemId: string): ItemSocial | undefined {
  const { data } = useQuery({ ...tilesQuery(albumId), select: (tiles: TileSocial) => tiles[itemId] });
  return data;
}

/** The open item's counts and own heart: from the tiles when its month is loaded, else asked for alone. */
export function useOpenItemSocial(albumId: string, itemId: string): ItemSocial | undefined {
  // A link's visitor has no social port: nothing is asked, and the item has no counts.
  const port = useAlbumBackend().social;
  const qc = useQueryClient();
  const social = useItemSocial(albumId, itemId);
  const alone = useQuery({
    queryKey: socialKeys.month(albumId, 'item', '', itemId),
    queryFn: ({ signal }) => (port ? port.itemSocial(albumId, [itemId], { signal }) : Promise.resolve([])),
    enabled: social === undefined && port !== undefined,
  });
  useEffect(() => {
    const found = alone.data?.[0];
    if (found) qc.setQueryData<TileSocial>(socialKeys.tiles(albumId), (tiles) => (tiles?.[itemId] ? tiles : { ...(tiles ?? {}), [itemId]: found }));
  }, [qc, albumId, itemId, alone.data]);
  return social;
}

/** Gives or takes back one's heart, showing it at once and putting it back if the call fails. */
export function useSetFavorite(albumId: string, itemId: string) {
  // In the viewer, which a link's visitor has too (without hearts: no social port).
  const { social } = useAlbumBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (on: boolean) => requirePort(social, 'social').setFavorite(albumId, itemId, on),
    onMutate: (on: boolean) => {
      const before = qc.getQueryData<TileSocial>(socialKeys.tiles(albumId))?.[itemId];
      if (before?.myFavorite === on) return { before };
      const base = before ?? { itemId, commentCount: 0, favoriteCount: 0, myFavorite: false };
      const after = { ...base, myFavorite: on, favoriteCount: Math.max(0, base.favoriteCount + (on ? 1 : -1)) };
      qc.setQueryData<TileSocial>(socialKeys.tiles(albumId), (tiles) => ({ ...(tiles ?? {}), [itemId]: after }));
      return { before };
    },
    onError: (_e, _on, ctx) => {
      const before = ctx?.before;
      qc.setQueryData<TileSocial>(socialKeys.tiles(albumId), (tiles) => {
        const next = { ...(tiles ?? {}) };
        if (before) next[itemId] = before;
        else delete next[itemId];
        return next;
      });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: socialKeys.favoriters(albumId, itemId), exact: true }),
  });
}

const CHUNK = 1000;

/**
 * [Note: The tile map holds the loaded months]
 * The tiles' counts live in one map per album (`socialKeys.tiles`), addressed by item id, so the viewer and
 * live events reach an item wherever it is. Every write copies the map: a write costs what the map holds.
 * So the map holds the counts of the loaded months only, as the grid holds only their rows: a month's answer goes in when it comes
 * and comes out when the month is dropped, and each write carries only the months whose answer changed. When
 * the map kept every item scrolled past and every write carried every loaded month again, a write near the end
 * of a 100,000-item album copied 100,000 entries and took 30 to 140 ms, on the main thread, several times a
 * second of scrolling.
 */

/** What each loaded month put in the tile map, so that it can take it out again. */
interface Merged {
  albumId: string;
  /** The answer last merged for each month. */
  byMonth: Map<string, readonly ItemSocial[]>;
  /** Which month's answer an item's entry came from: an item that moved to another month is that one's now. */
  owner: Map<string, string>;
}

/**
 * [Note: Query functions made outside render]
 * A query keeps the options it was last given, its `queryFn` among them, and a function made inside a hook's
 * render keeps that render's variables alive: in V8 every closure of a scope shares one context, so it holds
 * whatever any of them uses. Here those were the rendered results, whose observers hold their options, whose
 * `queryFn` held the render before: a chain through every render since the album opened, and every item the grid
 * had ever loaded with it. Scrolling a 100,000-item album grew the heap to 80 MB and never gave it back, and the
 * major collections that walked it held the page's thread for 30 to 50 ms each. Query options with a function
 * in them are made by a function outside the hook, which can keep only its own arguments.
 */

/**
 * [Note: A month's counts read once]
 * A month's answer is asked for again whenever its items change, and during an import they change with every
 * photo that arrives: a shoot of a thousand photos in one month read the counts of all the month's items a
 * thousand times (a million item reads on the page's thread), and put every one of them back in the tile map,
 * which drew every tile again. A month asked about because its items changed now reuses the answers it already
 * has for the items it still holds and asks only about the others; what changes for those items afterwards comes
 * live (apply-social-change.ts). A month asked about again with the same items (its answer is stale) is read
 * whole, as before.
 */

/** The counts of one loaded month's items ([Note: Query functions made outside render]). */
function monthSocialQuery(
  social: SocialPort,
  qc: QueryClient,
  albumId: string,
  sort: string,
  month: string,
  items: readonly Item[],
  /** What the grid merged so far; read when the month is asked about, never in render. */
  merged: { readonly current: Merged },
) {
  const ids = items.map((i) => i.id);
  const queryKey = socialKeys.month(albumId, sort, month, `${ids.length}:${ids[0] ?? ''}:${ids[ids.length - 1] ?? ''}`);
  return {
    queryKey,
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      // [Note: A month's counts read once]
      const again = qc.getQueryData(queryKey) !== undefined;
      const before = merged.current.albumId === albumId ? merged.current.byMonth.get(month) : undefined;
      const known = new Map(again ? [] : (before ?? []).map((a) => [a.itemId, a]));
      const out: ItemSocial[] = ids.flatMap((id) => known.get(id) ?? []);
      const ask = ids.filter((id) => !known.has(id));
      for (let i = 0; i < ask.length; i += CHUNK) out.push(...(await social.itemSocial(albumId, ask.slice(i, i + CHUNK), { signal })));
      return out;
    },
    staleTime: 60_000,
    gcTime: 5_000,
  };
}

/**
 * Fills the tiles' counts for every loaded month: one `itemSocial` call per month (per 1,000 items), never
 * one per tile, and only again when the month's items change ([Note: The tile map holds the loaded months]).
 */
export function useTileSocial(albumId: string, sort: string, sections: readonly { month: string; items: readonly Item[] | null; partial?: boolean }[]): TileSocial | undefined {
  const { social } = useBackend();
  const qc = useQueryClient();
  // The grid passes each tile its entry: one observer for the album, not one per tile mounted while scrolling.
  // Observed here, too, the map outlives moments without tiles (an empty filter) and stays what was merged.
  const tiles = useQuery(tilesQuery(albumId)).data;
  // A month still coming is asked about once its last page is in: asked at each page, a month's early items were
  // read again with every page after them.
  const loaded = sections.filter((s): s is { month: string; items: readonly Item[] } => s.items !== null && s.items.length > 0 && !s.partial);
  const merged = useRef<Merged>({ albumId, byMonth: new Map(), owner: new Map() });
  const results = useQueries({ queries: loaded.map((s) => monthSocialQuery(social, qc, albumId, sort, s.month, s.items, merged)) });
  // Each loaded month and when its answer came, as one string: the effect runs when either changes.
  const stamp = loaded.map((s, i) => `${s.month}:${results[i]?.dataUpdatedAt ?? 0}`).join(',');
  useEffect(() => {
    if (merged.current.albumId !== albumId) merged.current = { albumId, byMonth: new Map(), owner: new Map() };
    const { byMonth, owner } = merged.current;
    const drop: string[] = [];
    const put: ItemSocial[] = [];
    const release = (month: string, answers: readonly ItemSocial[]) => {
      for (const a of answers) {
        if (owner.get(a.itemId) !== month) continue;
        owner.delete(a.itemId);
        drop.push(a.itemId);
      }
    };
    const still = new Set(loaded.map((s) => s.month));
    for (const [month, answers] of byMonth) {
      if (still.has(month)) continue;
      release(month, answers);
      byMonth.delete(month);
    }
    loaded.forEach((s, i) => {
      const answers = results[i]?.data;
      const before = byMonth.get(s.month);
      // A month read again (more of its pages came) keeps its old counts until the new ones are in.
      if (!answers || answers === before) return;
      // Answers reused from before ([Note: A month's counts read once]) stay in the map as live changes left them.
      const reused = new Set(before ?? []);
      if (before) {
        const still = new Set(answers.map((a) => a.itemId));
        release(s.month, before.filter((a) => !still.has(a.itemId)));
      }
      byMonth.set(s.month, answers);
      for (const a of answers) {
        if (reused.has(a) && owner.get(a.itemId) === s.month) continue;
        owner.set(a.itemId, s.month);
        put.push(a);
      }
    });
    if (drop.length === 0 && put.length === 0) return;
    qc.setQueryData<TileSocial>(socialKeys.tiles(albumId), (tiles) => {
      const next: Record<string, ItemSocial> = { ...(tiles ?? {}) };
      for (const id of drop) delete next[id];
      for (const a of put) next[a.itemId] = a;
      return next;
    });
  }, [qc, albumId, stamp]); // eslint-disable-line react-hooks/exhaustive-deps -- `stamp` says when `loaded` or `results` changed
  return tiles;
}

export type { Favoriter };
