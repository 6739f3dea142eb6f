// Loaded into the app's origin by live-bench.mjs, in a second tab: seeds an album and then acts on it as another
// person would, through the local backend, whose changes reach the album's tab over its BroadcastChannel.
import { createLocalBackend } from '../src/backend/local/create-local-backend';
import { LocalRealtime } from '../src/backend/local/local-realtime';
import type { ChangeEvent } from '../src/backend/ports';
import { seedLocalAlbum } from '../src/testing/local-seed';

declare global {
  interface Window {
    __seedAlbum: (count: number) => Promise<string>;
    __liveEvent: (albumId: string, i: number, peer: boolean) => Promise<{ sentAt: number; itemId: string | null }>;
    __lookers: (albumId: string, n: number) => number;
  }
}

const backend = createLocalBackend();
const realtime = backend.realtime as LocalRealtime;
let target: { itemId: string } | null = null;

window.__seedAlbum = async (count: number) => {
  const album = await backend.albums.createAlbum({ title: `${count.toLocaleString('en-US')} photos` });
  await seedLocalAlbum({}, album.id, count);
  target = { itemId: (await backend.items.listItems(album.id, { sort: 'taken', limit: 1 })).rows[0]!.id };
  return album.id;
};

const now = () => performance.timeOrigin + performance.now();

/**
 * Event `i` of the run: a new photo (newest of the album, so it lands in the month on screen), a comment or a
 * favourite on the newest photo, in turn. Comments and favourites travel as the change events the backends send
 * for them. `peer`: the message the database sends when it cannot say what changed ("the album changed"), which
 * the app answers as the code before this change answered every event: by reading the open months again.
 */
window.__liveEvent = async (albumId: string, i: number, peer: boolean) => {
  const kind = i % 3;
  const at = new Date().toISOString();
  if (peer) {
    const sentAt = now();
    realtime.emit([{ entity: 'album', op: 'update', albumId, id: albumId, row: null }]);
    return { sentAt, itemId: null };
  }
  if (kind === 0) {
    const id = crypto.randomUUID();
    await backend.itemWrites.reserveItems(albumId, [{ id, filename: `new-${i}.jpg`, mime: 'image/jpeg', kind: 'image', bytes: 2_000_000 }]);
    const sentAt = now();
    await backend.itemWrites.finalizeItem(albumId, id, {
      sha256: 'f'.repeat(64),
      width: 4000,
      height: 3000,
      durationMs: null,
      takenAt: new Date(Date.UTC(2025, 11, 31, 23, 0, i)).toISOString(),
      hasPreview: false,
      hasThumb: false,
      thumbhash: null,
      metadata: {},
    });
    return { sentAt, itemId: id };
  }
  const itemId = target!.itemId;
  const ev: ChangeEvent =
    kind === 1
      ? { entity: 'comment', op: 'insert', albumId, id: crypto.randomUUID(), row: { itemId, authorId: 'ana', body: `Lovely ${i}`, createdAt: at, editedAt: null } }
      : { entity: 'favorite', op: i % 2 ? 'insert' : 'delete', albumId, id: `${itemId}:ana`, row: { itemId, userId: 'ana', createdAt: at } };
  const sentAt = now();
  realtime.emit([ev]);
  return { sentAt, itemId: null };
};

/** `n` other people open the album, each a tab of their own on the same channel (presence benchmark). */
window.__lookers = (albumId: string, n: number) => {
  for (let k = 0; k < n; k++) {
    const rt = new LocalRealtime('shoebox', async () => ({ id: `looker-${k}`, displayName: `Person ${k + 1}`, avatarKey: null, createdAt: new Date(0).toISOString() }));
    rt.subscribe(albumId, {});
  }
  return now();
};
