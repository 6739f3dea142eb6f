/**
 * Comments and hearts on this device beyond the shared contract: another tab hears them as change events with
 * the rows the Supabase adapter would give, and a purged item or a deleted album leaves none behind.
 */
import { expect, it } from 'vitest';
import { addReadyItem, afterTrashPeriod, waitFor } from '../../testing/contract/contract-fixtures';
import type { ChangeEvent } from '../ports';
import { createLocalBackend } from './create-local-backend';
import { LocalDb } from './local-db';
import { isolatedLocal } from '../../testing/isolated-local';

const isolated = () => isolatedLocal('local-social');

async function stored(dbName: string): Promise<{ comments: number; favorites: number }> {
  const db = await new LocalDb(dbName).get();
  try {
    return { comments: await db.count('comments'), favorites: await db.count('favorites') };
  } finally {
    db.close();
  }
}

it('tells another tab of a comment, its edit and deletion, and a heart, as plain camelCase rows', async () => {
  const names = isolated();
  const writer = createLocalBackend(names);
  const reader = createLocalBackend(names);
  const album = await writer.albums.createAlbum({ title: 'Heard' });
  const item = await addReadyItem(writer, album.id);
  const heard: ChangeEvent[] = [];
  let joined = false;
  const stop = reader.realtime.subscribe(album.id, { onChange: (ev) => heard.push(ev), onJoined: () => (joined = true) });
  try {
    await waitFor(() => (joined ? true : undefined), 5000, 'the reader joined');
    const comment = await writer.social.addComment(album.id, item.id, 'Hello from the other tab');
    await writer.social.editComment(album.id, comment.id, 'Hello again');
    await writer.social.setFavorite(album.id, item.id, true);
    await writer.social.setFavorite(album.id, item.id, true);
    await writer.social.setFavorite(album.id, item.id, false);
    await writer.social.deleteComment(album.id, comment.id);
    const social = () => heard.filter((e) => e.entity === 'comment' || e.entity === 'favorite');
    await waitFor(() => (social().length >= 5 ? true : undefined), 3000, 'five events');
    const me = (await writer.auth.getSession())!.userId;
    expect(social().map((e) => [e.entity, e.op])).toEqual([
      ['comment', 'insert'],
      ['comment', 'update'],
      ['favorite', 'insert'],
      ['favorite', 'delete'],
      ['comment', 'delete'],
    ]);
    expect(social()[0]).toEqual({
      entity: 'comment',
      op: 'insert',
      albumId: album.id,
      id: comment.id,
      row: { itemId: item.id, authorId: me, body: 'Hello from the other tab', createdAt: comment.createdAt, editedAt: null },
    });
    expect(social()[1]).toMatchObject({ id: comment.id, row: { body: 'Hello again', editedAt: expect.any(String) as unknown as string } });
    expect(social()[2]).toMatchObject({ id: `${item.id}:${me}`, row: { itemId: item.id, userId: me, createdAt: expect.any(String) as unknown as string } });
    // Taken back and deleted: the key alone, as the server sends them.
    expect(social()[3]).toMatchObject({ id: `${item.id}:${me}`, row: { itemId: item.id, userId: me, createdAt: null } });
    expect(social()[4]).toMatchObject({ id: comment.id, row: null });
  } finally {
    stop();
  }
});

it('leaves no comment or heart behind a purged item or a deleted album', async () => {
  const names = isolated();
  const b = createLocalBackend(names);
  const album = await b.albums.createAlbum({ title: 'Gone soon' });
  const [old, kept] = [await addReadyItem(b, album.id), await addReadyItem(b, album.id)];
  for (const item of [old, kept]) {
    await b.social.addComment(album.id, item.id, 'Words');
    await b.social.setFavorite(album.id, item.id, true);
  }
  expect(await stored(names.dbName)).toEqual({ comments: 2, favorites: 2 });
  await b.itemWrites.trashItems(album.id, [old.id]);
  await afterTrashPeriod(async () => expect(await b.functions.invoke('purge', {})).toEqual({ purged: 1 }));
  expect(await stored(names.dbName)).toEqual({ comments: 1, favorites: 1 });
  expect(await b.social.itemSocial(album.id, [kept.id])).toEqual([{ itemId: kept.id, commentCount: 1, favoriteCount: 1, myFavorite: true }]);

  await b.albums.deleteAlbum(album.id);
  expect(await stored(names.dbName)).toEqual({ comments: 0, favorites: 0 });
});
