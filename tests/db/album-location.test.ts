/**
 * The album's choice about location in originals (PRODUCT.md §3 albums.keep_location, §6 "keep/remove
 * location": the owner only). Removal is the default; only the owner may switch it, through update_album, and
 * every member reads which applies from album_summaries. Run as signed-in users on real Postgres.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorOf, startCast, storeOriginal, type Actor, type Harness } from './db-harness';

let db: Harness, owner: Actor, editor: Actor, viewer: Actor, stranger: Actor;

beforeAll(async () => ({ db, owner, editor, viewer, stranger } = await startCast()));
afterAll(() => db?.close());

const commit = { commit: true };
const call = <T extends Record<string, unknown> = Record<string, unknown>>(who: Actor, sql: string, params: unknown[] = []) =>
  db.as(who, (q) => q.query<T>(sql, params), commit);
const codeOf = async (p: Promise<unknown>) => (await errorOf(p)).message;
const patch = (who: Actor, albumId: string, value: unknown) =>
  call<{ keep_location: boolean; title: string }>(who, `select * from public.update_album($1, $2)`, [albumId, JSON.stringify(value)]);
const keepsLocation = async (who: Actor, albumId: string) =>
  (await call<{ keep_location: boolean }>(who, `select keep_location from public.album_summaries where id = $1`, [albumId]))[0]?.keep_location;

async function album(): Promise<string> {
  const [a] = await call<{ id: string }>(owner, `select id from public.create_album('Lisbon')`);
  for (const [who, role] of [[editor, 'editor'], [viewer, 'viewer']] as const) {
    const [inv] = await call<{ token: string }>(owner, `select * from public.create_invite($1, $2)`, [a!.id, role]);
    await call(who, `select * from public.accept_invite($1)`, [inv!.token]);
  }
  return a!.id;
}

describe('keep or remove location in originals', () => {
  test('a new album removes location; the owner switches it both ways and every member reads which applies', async () => {
    const id = await album();
    expect(await keepsLocation(viewer, id)).toBe(false);
    const [kept] = await patch(owner, id, { keep_location: true });
    expect(kept).toMatchObject({ keep_location: true, title: 'Lisbon' });
    expect(await keepsLocation(editor, id)).toBe(true);
    expect(await keepsLocation(viewer, id)).toBe(true);
    await patch(owner, id, { keep_location: false });
    expect(await keepsLocation(viewer, id)).toBe(false);
  });

  test('an editor, who may rename the album, may not change it; nor a viewer; a stranger finds no album', async () => {
    const id = await album();
    expect(await codeOf(patch(editor, id, { keep_location: true }))).toBe('album/forbidden');
    // Not even slipped in beside a change the editor may make.
    expect(await codeOf(patch(editor, id, { title: 'Renamed', keep_location: true }))).toBe('album/forbidden');
    expect(await codeOf(patch(viewer, id, { keep_location: true }))).toBe('album/forbidden');
    expect(await codeOf(patch(stranger, id, { keep_location: true }))).toBe('album/not-found');
    expect(await keepsLocation(owner, id)).toBe(false);
    expect((await call<{ title: string }>(owner, `select title from public.album_summaries where id = $1`, [id]))[0]?.title).toBe('Lisbon');
    // The column is written only through update_album.
    expect((await errorOf(call(owner, `update public.albums set keep_location = true where id = $1 returning 1`, [id]))).code).toBe('42501');
  });

  test('only true or false is accepted', async () => {
    const id = await album();
    for (const bad of [null, 'yes', 1, {}]) expect(await codeOf(patch(owner, id, { keep_location: bad })), JSON.stringify(bad)).toBe('validation/invalid');
    expect(await keepsLocation(owner, id)).toBe(false);
  });

  test('an item says what became of its location, and the metadata never takes a place instead', async () => {
    const id = await album();
    const upload = async (metadata: unknown) => {
      const itemId = randomUUID();
      const file = { id: itemId, filename: 'IMG_1.jpg', mime: 'image/jpeg', kind: 'image', bytes: 1000 };
      await db.as(owner, async (q) => {
        await q.query(`select id from public.reserve_items($1, $2)`, [id, JSON.stringify([file])]);
        await storeOriginal(q, id, itemId, file.bytes);
        await q.query(`select id from public.finalize_item($1, $2, $3)`, [id, itemId, JSON.stringify({ sha256: 'a'.repeat(64), metadata })]);
      }, commit);
      return (await call<{ metadata: Record<string, unknown> }>(viewer, `select metadata from public.items where id = $1`, [itemId]))[0]?.metadata;
    };
    expect(await upload({ cameraMake: 'Canon', location: 'removed' })).toEqual({ cameraMake: 'Canon', location: 'removed' });
    expect(await upload({ location: 'preview' })).toEqual({ location: 'preview' });
    expect(await upload({ location: 'kept' })).toEqual({ location: 'kept' });
    for (const bad of [{ location: '48.858 N, 2.294 E' }, { location: { latitude: 48.858, longitude: 2.294 } }, { location: true }]) {
      expect(await codeOf(upload(bad)), JSON.stringify(bad)).toBe('validation/invalid');
    }
  });
});
