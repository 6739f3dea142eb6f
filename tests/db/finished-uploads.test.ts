/**
 * [Note: An upload is finished only once its original is stored]: an item becomes ready only when the
 * database knows its original is in the bucket at the size it was reserved at, from Supabase Storage's own
 * row or from what a function recorded after looking. Run as signed-in users on real Postgres.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorOf, startDb, storeOriginal, type Actor, type Harness } from './db-harness';

let db: Harness;
let owner: Actor;

beforeAll(async () => {
  db = await startDb();
  owner = await db.createUser('Olive');
});
afterAll(async () => {
  await db?.close();
});

const commit = { commit: true };
const GiB = 1024 ** 3;

async function reserved(bytes: number): Promise<{ albumId: string; itemId: string }> {
  const [album] = await db.as(owner, (q) => q.query<{ id: string }>(`select id from public.create_album('Holiday')`), commit);
  const itemId = randomUUID();
  const file = { id: itemId, filename: 'IMG_1.mov', mime: 'video/quicktime', kind: 'video', bytes };
  await db.as(owner, (q) => q.query(`select id from public.reserve_items($1, $2)`, [album!.id, JSON.stringify([file])]), commit);
  return { albumId: album!.id, itemId };
}

const finish = (albumId: string, itemId: string) =>
  db.as(owner, (q) => q.query<{ status: string }>(`select status from public.finalize_item($1, $2, $3)`, [albumId, itemId, JSON.stringify({ sha256: 'a'.repeat(64) })]), commit);

const albumBytes = async (albumId: string) =>
  Number((await db.as(owner, (q) => q.query<{ bytes_total: string }>(`select bytes_total from public.album_summaries where id = $1`, [albumId])))[0]!.bytes_total);

describe('an upload is finished only once its original is stored', () => {
  test('three rows of 20 GiB with nothing uploaded stay unfinished, and the album counts none of it', async () => {
    const { albumId } = await reserved(1);
    const empties = [];
    for (let i = 0; i < 3; i++) {
      const itemId = randomUUID();
      await db.as(owner, (q) => q.query(`select id from public.reserve_items($1, $2)`, [albumId, JSON.stringify([{ id: itemId, filename: `v${i}.mov`, mime: 'video/quicktime', kind: 'video', bytes: 20 * GiB }])]), commit);
      empties.push(itemId);
    }
    for (const itemId of empties) expect((await errorOf(finish(albumId, itemId))).message).toBe('upload/interrupted');
    expect(await albumBytes(albumId)).toBe(0);
  });

  test('an original of another size than reserved is upload/integrity; at the size reserved it finishes', async () => {
    const short = await reserved(5000);
    await db.as(owner, (q) => storeOriginal(q, short.albumId, short.itemId, 4999), commit);
    expect((await errorOf(finish(short.albumId, short.itemId))).message).toBe('upload/integrity');

    const whole = await reserved(5000);
    await db.as(owner, (q) => storeOriginal(q, whole.albumId, whole.itemId, 5000), commit);
    expect((await finish(whole.albumId, whole.itemId)).map((r) => r.status)).toEqual(['ready']);
    expect(await albumBytes(whole.albumId)).toBe(5000);
  });

  test('what a function recorded counts as stored; no signed-in user can record it', async () => {
    const { albumId, itemId } = await reserved(700);
    const record = (who: Actor) => db.as(who, (q) => q.query(`select private.record_stored($1, 700)`, [itemId]), commit);
    expect((await errorOf(record(owner))).message).toMatch(/permission denied/);
    expect((await errorOf(db.as(owner, (q) => q.query(`insert into private.stored_originals (item_id, bytes) values ($1, 700)`, [itemId])))).message).toMatch(/permission denied/);
    expect((await errorOf(finish(albumId, itemId))).message).toBe('upload/interrupted');
    await db.query(`select private.record_stored($1, 700)`, [itemId]);
    expect((await finish(albumId, itemId)).map((r) => r.status)).toEqual(['ready']);
  });

  test('nothing is recorded for an item that is not uploading any more', async () => {
    const { albumId, itemId } = await reserved(700);
    await db.query(`select private.record_stored($1, 700)`, [itemId]);
    await finish(albumId, itemId);
    await db.query(`select private.record_stored($1, 12345)`, [itemId]);
    expect(await db.query(`select bytes::int as bytes from private.stored_originals where item_id = $1`, [itemId])).toEqual([{ bytes: 700 }]);
  });
});
