/**
 * Editing items' details through edit_items (PRODUCT.md §6 "edit item metadata"), run as signed-in members on real
 * Postgres: the function's own checks (the app checks first, but the database is the authority), the role rules
 * for selections that mix uploaders, edits that merge into what each row holds, and the change members hear.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorOf, startCast, storeOriginal, type Actor, type Harness } from './db-harness';

let db: Harness, owner: Actor, editor: Actor, contributor: Actor, viewer: Actor;

beforeAll(async () => ({ db, owner, editor, contributor, viewer } = await startCast()));
afterAll(() => db?.close());

const commit = { commit: true };
const call = <T extends Record<string, unknown> = Record<string, unknown>>(who: Actor, sql: string, params: unknown[] = []) =>
  db.as(who, (q) => q.query<T>(sql, params), commit);
const codeOf = async (p: Promise<unknown>) => (await errorOf(p)).message;
type Row = { id: string; metadata: Record<string, unknown>; taken_at: Date | string | null; edited_at: Date | string | null };
const edit = (who: Actor, albumId: string, ids: string[], value: unknown) =>
  call<Row>(who, `select id, metadata, taken_at, edited_at from public.edit_items($1, $2, $3)`, [albumId, ids, JSON.stringify(value)]);
const rowOf = async (id: string) => (await call<Row>(viewer, `select id, metadata, taken_at, edited_at from public.items where id = $1`, [id]))[0]!;
const iso = (t: Date | string | null) => (t === null ? null : new Date(t).toISOString());

async function album(): Promise<string> {
  const [a] = await call<{ id: string }>(owner, `select id from public.create_album('Lisbon')`);
  for (const [who, role] of [[editor, 'editor'], [contributor, 'contributor'], [viewer, 'viewer']] as const) {
    const [inv] = await call<{ token: string }>(owner, `select * from public.create_invite($1, $2)`, [a!.id, role]);
    await call(who, `select * from public.accept_invite($1)`, [inv!.token]);
  }
  return a!.id;
}

async function upload(who: Actor, albumId: string, metadata: unknown = {}, takenAt: string | null = null): Promise<string> {
  const itemId = randomUUID();
  const file = { id: itemId, filename: 'IMG_1.jpg', mime: 'image/jpeg', kind: 'image', bytes: 1000 };
  await db.as(who, async (q) => {
    await q.query(`select id from public.reserve_items($1, $2)`, [albumId, JSON.stringify([file])]);
    await storeOriginal(q, albumId, itemId, file.bytes);
    await q.query(`select id from public.finalize_item($1, $2, $3)`, [albumId, itemId, JSON.stringify({ sha256: 'a'.repeat(64), metadata, taken_at: takenAt })]);
  }, commit);
  return itemId;
}

describe('edit_items', () => {
  test('refuses by itself what the app would have refused, and changes nothing then', async () => {
    const id = await album();
    const item = await upload(owner, id, { cameraMake: 'Canon', keywords: ['sea'] }, '2024-05-01T10:00:00Z');
    const bad: unknown[] = [
      null, [], {}, 'rating', { rating: 6 }, { rating: 2.5 }, { rating: '5' }, { cameraMake: 'Nikon' }, { location: 'kept' },
      { title: 'x'.repeat(2001) }, { label: 'x'.repeat(201) }, { title: 7 }, { keywords: 'sea' }, { keywords: [1] },
      { keywords: ['x'.repeat(101)] }, { addKeywords: Array.from({ length: 201 }, (_, i) => `k${i}`) },
      { keywords: ['a'], removeKeywords: ['b'] }, { takenAt: 'not a date' }, { takenAt: 'infinity' }, { takenAt: 5 },
      { takenAt: '10000-01-01T00:00:00Z' }, { takenAt: '2020-01-01T00:00:00Z', shiftTakenAtMs: 1 }, { shiftTakenAtMs: 1.5 },
      { shiftTakenAtMs: 4e12 }, { shiftTakenAtMs: '60000' },
    ];
    for (const value of bad) expect(await codeOf(edit(owner, id, [item], value)), JSON.stringify(value)).toBe('validation/invalid');
    const row = await rowOf(item);
    expect(row.metadata).toEqual({ cameraMake: 'Canon', keywords: ['sea'] });
    expect(iso(row.taken_at)).toBe('2024-05-01T10:00:00.000Z');
    expect(row.edited_at).toBeNull();
  });

  test('a contributor edits their own items only; a viewer none; a selection with another\'s item changes nothing', async () => {
    const id = await album();
    const mine = await upload(contributor, id);
    const theirs = await upload(editor, id);
    const [edited] = await edit(contributor, id, [mine], { rating: 3 });
    expect(edited!.metadata).toEqual({ rating: 3 });
    expect(await codeOf(edit(contributor, id, [mine, theirs], { rating: 1 }))).toBe('album/forbidden');
    expect((await rowOf(mine)).metadata).toEqual({ rating: 3 });
    expect(await codeOf(edit(viewer, id, [mine], { rating: 1 }))).toBe('album/forbidden');
    // The owner and editors edit anyone's.
    expect((await edit(editor, id, [mine, theirs], { label: 'Red' })).map((r) => r.metadata.label)).toEqual(['Red', 'Red']);
    expect((await rowOf(theirs)).metadata).toEqual({ label: 'Red' });
    // Direct writes are gone: edit_items is the only way.
    expect((await errorOf(call(owner, `update public.items set metadata = '{"rating": 5}' where id = $1 returning 1`, [mine]))).code).toBe('42501');
  });

  test('each edit merges into the row as it is: two members adding keywords one after the other keep both', async () => {
    const id = await album();
    const item = await upload(owner, id, { keywords: ['Lisbon'] });
    await edit(editor, id, [item], { addKeywords: ['tram'] });
    await edit(owner, id, [item], { addKeywords: ['night'], removeKeywords: ['Lisbon'] });
    expect((await rowOf(item)).metadata).toEqual({ keywords: ['tram', 'night'] });
  });

  test('a shift leaves undated items and dates it would push past year 9999 as they were', async () => {
    const id = await album();
    const dated = await upload(owner, id, {}, '2024-05-01T10:00:00Z');
    const undated = await upload(owner, id);
    const edge = await upload(owner, id, {}, '9999-12-31T23:00:00Z');
    const rows = await edit(owner, id, [dated, undated, edge], { shiftTakenAtMs: -3 * 3600_000 });
    const taken = new Map(rows.map((r) => [r.id, iso(r.taken_at)]));
    expect([dated, undated, edge].map((i) => taken.get(i))).toEqual(['2024-05-01T07:00:00.000Z', null, '9999-12-31T20:00:00.000Z']);
    const back = await edit(owner, id, [edge], { shiftTakenAtMs: 24 * 3600_000 });
    expect(iso(back[0]!.taken_at)).toBe('9999-12-31T20:00:00.000Z');
    expect(rows.every((r) => r.edited_at !== null)).toBe(true);
  });
});
