/**
 * The backend of a link's visitor, so the album grid and the viewer work on `/s/:token` as they do for
 * members, unchanged: the album and its pages come from `share-open` (through LinkVisitor), URLs from what the
 * pages carried (refreshed through `urls` when they near expiry), and the names of those who added what is
 * shown. Nothing only members have (comments, hearts, live updates, activity, any write) is there at all: an
 * AlbumBackend has no such ports.
 */
import { AppError } from '../../lib/app-error';
import type { Item, Member } from '../../domain/entities';
import type { AlbumBackend, CallOptions, FunctionsPort, UrlOptions } from '../ports';
import type { ItemCountQuery, ItemQuery, MonthCount, Page } from '../../domain/queries';
import { NO_ACCOUNT_CAPABILITIES } from './no-account';
import { parseSharedKey, sharedKey } from './link-object-keys';
import { sharedAlbum, SHARED_ALBUM_ID, type LinkVisitorBackend, type SharedItem, type SharedVariant } from '../link-types';
import { LinkVisitor } from './link-visitor';

/** Items kept for the viewer's `getItem` (the grid holds its own); the oldest go first. */
const KEEP_ITEMS = 5000;

/** Who added an item, as a made-up member id per name, so the grid's and the details' credit can name them. */
class Credits {
  private readonly ids = new Map<string, string>();
  idOf(name: string | null): string {
    if (!name) return '';
    let id = this.ids.get(name);
    if (!id) this.ids.set(name, (id = `credit-${this.ids.size + 1}`));
    return id;
  }
  members(): Member[] {
    return [...this.ids].map(([displayName, userId]) => ({ userId, displayName, avatarKey: null, role: 'viewer', addedBy: null, createdAt: '' }));
  }
}

export function sharedItemToItem(row: SharedItem, uploaderId: string): Item {
  return {
    id: row.id,
    albumId: SHARED_ALBUM_ID,
    uploaderId,
    kind: row.kind,
    status: 'ready',
    filename: row.filename,
    mime: row.mime,
    bytes: row.bytes,
    sha256: null,
    width: row.width,
    height: row.height,
    durationMs: row.durationMs,
    takenAt: row.takenAt,
    originalKey: sharedKey(row.id, 'original'),
    ...(row.storedEncoding === 'gzip' ? { storedEncoding: 'gzip' as const } : {}),
    previewKey: row.previewUrl || row.posterUrl ? sharedKey(row.id, 'preview') : null,
    thumbKey: row.thumbUrl ? sharedKey(row.id, 'thumb') : null,
    thumbhash: row.thumbhash,
    metadata: row.metadata ?? {},
    createdAt: row.createdAt,
    deletedAt: null,
  };
}

/** Only the visitor's view of the album: no trash, no favourites, no one person's items. */
const narrowed = (q: Pick<ItemQuery, 'trashed' | 'favoritesOnly' | 'uploaderId'>) => !!(q.trashed || q.favoritesOnly || q.uploaderId);

/** `visitor`: the link's own calls (made here from `token` unless given). */
export function createLinkVisitorBackend(functions: FunctionsPort, token: string, visitor = new LinkVisitor(functions, token)): LinkVisitorBackend {
  const credits = new Credits();
  const seen = new Map<string, Item>();
  const remember = (item: Item) => {
    seen.delete(item.id);
    seen.set(item.id, item);
    if (seen.size > KEEP_ITEMS) seen.delete(seen.keys().next().value as string);
  };
  const openedAlbum = () => {
    const answer = visitor.opened;
    if (!answer) throw new AppError('share/password-required', 'The link has not been opened yet.');
    return sharedAlbum(answer);
  };
  // The first counts call of the default view is answered by what `open` already said.
  let openMonthsUsed = false;

  const items: AlbumBackend['items'] = {
    async listItems(_albumId: string, query: ItemQuery, opts?: CallOptions): Promise<Page<Item>> {
      if (narrowed(query)) return { rows: [], nextCursor: null };
      const page = await visitor.items(
        { sort: query.sort, ...(query.month ? { month: query.month } : {}), cursor: query.cursor ?? null, ...(query.limit ? { limit: query.limit } : {}), ...(query.kind ? { kind: query.kind } : {}) },
        opts,
      );
      const rows = page.rows.map((r) => sharedItemToItem(r, credits.idOf(r.addedBy)));
      rows.forEach(remember);
      return { rows, nextCursor: page.nextCursor };
    },
    async countItemsByMonth(_albumId: string, query: ItemCountQuery, opts?: CallOptions): Promise<MonthCount[]> {
      if (narrowed(query)) return [];
      const opened = visitor.opened;
      if (!openMonthsUsed && opened && query.sort === 'taken' && !query.kind) {
        openMonthsUsed = true;
        return opened.months;
      }
      return visitor.counts({ sort: query.sort, ...(query.kind ? { kind: query.kind } : {}) }, opts);
    },
    async getItem(_albumId: string, itemId: string): Promise<Item> {
      if (visitor.stopped) throw visitor.stopped;
      const item = seen.get(itemId);
      if (!item) throw new AppError('item/not-found', 'This item is not among those the link has shown.');
      return item;
    },
  };

  const files: AlbumBackend['files'] = {
    async urls(keys: string[], opts: UrlOptions = {}): Promise<Map<string, string>> {
      if (opts.downloadAs !== undefined) {
        // A download asks afresh for a URL that saves the file under its name.
        const ids = keys.map(parseSharedKey).filter((k) => k?.variant === 'original').map((k) => k!.itemId);
        const got = ids.length ? await visitor.urls(ids, 'original', true, opts) : new Map<string, string>();
        return new Map([...got].map(([id, url]) => [sharedKey(id, 'original'), url]));
      }
      const { found, refresh } = visitor.book.lookup(keys, Date.now());
      for (const [variant, ids] of Object.entries(refresh) as [SharedVariant, string[]][]) {
        for (let i = 0; i < ids.length; i += 500) {
          const got = await visitor.urls(ids.slice(i, i + 500), variant, false, opts);
          for (const [id, url] of got) found.set(sharedKey(id, variant), url);
        }
      }
      return found;
    },
    async read(key: string, opts: CallOptions = {}): Promise<Blob> {
      const url = (await files.urls([key], opts)).get(key);
      if (!url) throw new AppError('item/not-found', 'This file cannot be read through the link.');
      const res = await fetch(url, { ...(opts.signal ? { signal: opts.signal } : {}) });
      if (!res.ok) throw new AppError('storage/denied', `HTTP ${res.status}`);
      return res.blob();
    },
  };

  return {
    capabilities: NO_ACCOUNT_CAPABILITIES,
    functions,
    files,
    albums: { getAlbum: async () => openedAlbum() },
    items,
    members: { listMembers: async () => credits.members() },
    visit: visitor,
  };
}
