/**
 * [Note: Originals stored compressed]: an item records at reserve time that its original is stored gzip and at
 * what size; it finishes only when the bucket holds that size; no member can change how it is stored (which
 * would make downloads inflate what is not gzip, or hand out gzip as the file); a guest's writes are signed at
 * the stored size. Run as signed-in users on real Postgres.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorOf, startDb, storeOriginal, type Actor, type Harness } from './db-harness';
import { seedShareLink } from './share-link-seed';

let db: Harness;
let owner: Actor;
const commit = { commit: true };

beforeAll(async () => {
  db = await startDb();
  owner = await db.createUser('Olive');
});
afterAll(async () => {
  await db?.close();
});

async function album(): Promise<string> {
  const [row] = await db.as(owner, (q) => q.query<{ id: string }>(`select id from public.create_album('Tracks')`), commit);
  return row!.id;
}

const reserve = (albumId: string, files: object[]) =>
  db.as(owner, (q) => q.query<{ id: string; bytes: string; stored_encoding: string | null; stored_bytes: string | null }>(`select id, bytes, stored_encoding, stored_bytes from public.reserve_items($1, $2)`, [albumId, JSON.stringify(files)]), commit);

const finish = (albumId: string, itemId: string) =>
  db.as(owner, (q) => q.query<{ status: string }>(`select status from public.finalize_item($1, $2, $3)`, [albumId, itemId, JSON.stringify({ sha256: 'a'.repeat(64) })]), commit);

const csv = (id: string, stored?: unknown) => ({ id, filename: 'ride.csv', mime: 'text/plain', kind: 'file', bytes: 100_000, ...(stored === undefined ? {} : { stored }) });

describe('an original stored gzip-compressed', () => {
  test('is recorded at reserve time with its stored size, and finishes only at that size; the album counts the file', async () => {
    const albumId = await album();
    const id = randomUUID();
    const [row] = await reserve(albumId, [csv(id, { encoding: 'gzip', bytes: 12_000 })]);
    expect(row).toMatchObject({ stored_encoding: 'gzip' });
    expect(Number(row!.stored_bytes)).toBe(12_000);
    expect(Number(row!.bytes)).toBe(100_000);

    // Stored at the file's own size (sent as it is after all): not what was reserved.
    const other = randomUUID();
    await reserve(albumId, [csv(other, { encoding: 'gzip', bytes: 12_000 })]);
    await db.as(owner, (q) => storeOriginal(q, albumId, other, 100_000), commit);
    expect((await errorOf(finish(albumId, other))).message).toBe('upload/integrity');
    await db.as(owner, (q) => storeOriginal(q, albumId, id, 12_000), commit);
    expect((await finish(albumId, id)).map((r) => r.status)).toEqual(['ready']);
    const [summary] = await db.as(owner, (q) => q.query<{ bytes_total: string }>(`select bytes_total from public.album_summaries where id = $1`, [albumId]));
    expect(Number(summary!.bytes_total)).toBe(100_000);

    // Stored as it is, nothing changes.
    const plain = randomUUID();
    const [asIs] = await reserve(albumId, [{ ...csv(plain), stored: null }]);
    expect(asIs).toMatchObject({ stored_encoding: null, stored_bytes: null });
  });

  test('is refused in any other form: another encoding, a size not smaller than the file, or not a number', async () => {
    const albumId = await album();
    for (const stored of [{ encoding: 'br', bytes: 10 }, { encoding: 'gzip', bytes: 100_000 }, { encoding: 'gzip', bytes: 0 }, { encoding: 'gzip', bytes: '10' }, { encoding: 'gzip' }, 'gzip']) {
      const refused = await reserve(albumId, [csv(randomUUID(), stored)]).then(() => 'accepted', (e: { message?: string }) => e.message);
      expect(refused, JSON.stringify(stored)).toBe('validation/invalid');
    }
  });

  test('cannot be changed by a member: neither how it is stored nor its stored size; an edit of its details leaves both', async () => {
    const albumId = await album();
    const id = randomUUID();
    await reserve(albumId, [csv(id, { encoding: 'gzip', bytes: 12_000 })]);
    await db.as(owner, (q) => storeOriginal(q, albumId, id, 12_000), commit);
    await finish(albumId, id);
    for (const set of [`stored_encoding = null`, `stored_bytes = 100000`, `stored_encoding = null, stored_bytes = null`]) {
      expect((await errorOf(db.as(owner, (q) => q.query(`update public.items set ${set} where id = $1`, [id]), commit))).message).toMatch(/permission denied/);
    }
    // Details are edited through edit_items, which leaves how the original is stored alone.
    await db.as(owner, (q) => q.query(`select id from public.edit_items($1, $2, $3)`, [albumId, [id], JSON.stringify({ title: 'Ride' })]), commit);
    const [row] = await db.query<{ stored_encoding: string | null; stored_bytes: string | null; title: string }>(`select stored_encoding, stored_bytes, metadata ->> 'title' as title from public.items where id = $1`, [id]);
    expect(row).toMatchObject({ stored_encoding: 'gzip', title: 'Ride' });
    expect(Number(row!.stored_bytes)).toBe(12_000);
  });

  test("a guest's compressed upload is reserved in its form, and its writes are signed at the stored size", async () => {
    const albumId = await album();
    const linkId = await seedShareLink(db, { albumId, createdBy: owner.id!, allowGuestUpload: true });
    const [guest] = await db.query<{ token: string }>(`select * from private.guest_join($1, 'Ana', null)`, [linkId]);
    const id = randomUUID();
    const file = { ...csv(id, { encoding: 'gzip', bytes: 9_000 }), sha256: randomBytes(32).toString('hex') };
    await db.query(`select private.guest_reserve($1, $2, $3)`, [linkId, guest!.token, JSON.stringify([file])]);
    const key = `albums/${albumId}/${id}/original`;
    const [signed] = await db.query<{ bytes: string }>(`select bytes::text from private.guest_keys($1, $2, $3, 'write')`, [linkId, guest!.token, [key]]);
    expect(Number(signed!.bytes)).toBe(9_000);
    expect((await errorOf(db.query(`select private.guest_reserve($1, $2, $3)`, [linkId, guest!.token, JSON.stringify([{ ...csv(randomUUID(), { encoding: 'gzip', bytes: 100_001 }) }])]))).message).toBe('validation/invalid');
    await db.query(`select private.record_stored($1, 9000)`, [id]);
    await db.query(`select private.guest_finalize($1, $2, $3, $4)`, [linkId, guest!.token, id, JSON.stringify({ sha256: 'b'.repeat(64), metadata: {} })]);
    const [row] = await db.query<{ status: string; stored_encoding: string }>(`select status, stored_encoding from public.items where id = $1`, [id]);
    expect(row).toEqual({ status: 'ready', stored_encoding: 'gzip' });
  });
});
