/**
 * The home screen's activity as the database gives it: who did it (a former member is unnamed, never ''),
 * what it is about (the item a comment was made on, and its kind), read as each member.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDb, storeOriginal, type Actor, type Harness, type Queryable } from './db-harness';

let db: Harness;
let owner: Actor;
let member: Actor;
let stranger: Actor;

beforeAll(async () => {
  db = await startDb();
  owner = await db.createUser('Olive');
  member = await db.createUser('Mina');
  stranger = await db.createUser('Stan');
});
afterAll(async () => {
  await db?.close();
});

const commit = { commit: true };
const call = <T extends Record<string, unknown> = Record<string, unknown>>(who: Actor, sql: string, params: unknown[] = []) =>
  db.as(who, (q) => q.query<T>(sql, params), commit);

type Line = { verb: string; actor_id: string | null; actor_name: string | null; subject: string | null; subject_kind: string | null; count: number };
const feed = (who: Actor, albumId: string) =>
  call<Line>(who, `select verb, actor_id, actor_name, subject, subject_kind, count from public.activity_feed where album_id = $1 order by created_at, id`, [albumId]);

async function albumWith(who: Actor, role: string): Promise<string> {
  const [a] = await call<{ id: string }>(owner, `select id from public.create_album('Lisbon')`);
  const [inv] = await call<{ token: string }>(owner, `select * from public.create_invite($1, $2, null, null, null)`, [a!.id, role]);
  await call(who, `select * from public.accept_invite($1)`, [inv!.token]);
  return a!.id;
}

async function upload(who: Actor, albumId: string, kind: 'image' | 'video' | 'file', n: number): Promise<string[]> {
  const mime = { image: 'image/jpeg', video: 'video/mp4', file: 'application/octet-stream' }[kind];
  const files = Array.from({ length: n }, () => ({ id: randomUUID(), filename: 'x', mime, kind, bytes: 100 }));
  await db.as(who, async (q: Queryable) => {
    await q.query(`select * from public.reserve_items($1, $2)`, [albumId, JSON.stringify(files)]);
    for (const f of files) {
      await storeOriginal(q, albumId, f.id, f.bytes);
      await q.query(`select * from public.finalize_item($1, $2, $3)`, [albumId, f.id, JSON.stringify({ sha256: 'a'.repeat(64) })]);
    }
  }, commit);
  return files.map((f) => f.id);
}

describe('activity_feed', () => {
  test('a comment names the item it was made on and its kind; a line of additions the kind all its items share', async () => {
    const id = await albumWith(member, 'contributor');
    const [video] = await upload(member, id, 'video', 1);
    const added = await upload(owner, id, 'image', 3);
    await call(member, `insert into public.comments (item_id, album_id, body) values ($1, $2, 'Nice')`, [added[1], id]);
    await call(owner, `insert into public.comments (item_id, album_id, body) values ($1, $2, 'Mine')`, [video, id]);
    const lines = await feed(owner, id);
    expect(lines.filter((l) => l.verb === 'commented').map((l) => [l.actor_name, l.subject, l.subject_kind])).toEqual([
      ['Mina', added[1], 'image'],
      ['Olive', video, 'video'],
    ]);
    const adds = lines.filter((l) => l.verb === 'added_items');
    expect(adds.map((l) => [l.actor_name, l.count, l.subject_kind])).toEqual([['Mina', 1, 'video'], ['Olive', 3, 'image']]);
    expect(lines.filter((l) => l.verb !== 'added_items' && l.verb !== 'commented').every((l) => l.subject_kind === null)).toBe(true);
    // The member reads the same lines through their own policies.
    expect((await feed(member, id)).filter((l) => l.verb === 'commented').map((l) => l.subject_kind)).toEqual(['image', 'video']);
    expect(await feed(stranger, id)).toEqual([]);
  });

  test('once a line of additions holds two kinds it names none ("12 items"), and a new line starts afresh', async () => {
    const [a] = await call<{ id: string }>(owner, `select id from public.create_album('Porto')`);
    await upload(owner, a!.id, 'image', 2);
    expect((await feed(owner, a!.id)).filter((l) => l.verb === 'added_items').map((l) => [l.count, l.subject_kind])).toEqual([[2, 'image']]);
    await upload(owner, a!.id, 'file', 1);
    await upload(owner, a!.id, 'image', 1);
    expect((await feed(owner, a!.id)).filter((l) => l.verb === 'added_items').map((l) => [l.count, l.subject_kind])).toEqual([[4, null]]);
  });

  test('someone who left is unnamed (null), not "": their lines stay, and their name no longer shows', async () => {
    // Someone who shares no other album with the owner.
    const lea = await db.createUser('Lea');
    const id = await albumWith(lea, 'contributor');
    await upload(lea, id, 'image', 2);
    expect((await feed(owner, id)).filter((l) => l.actor_id === lea.id).map((l) => l.actor_name)).toEqual(['Lea', 'Lea']);
    await call(lea, `select public.leave_album($1, true)`, [id]);
    const lines = await feed(owner, id);
    const theirs = lines.filter((l) => l.actor_id === lea.id);
    expect(theirs.map((l) => l.verb)).toEqual(['joined', 'added_items', 'left']);
    for (const l of theirs) expect(l.actor_name).toBeNull();
    expect(lines.filter((l) => l.actor_id === owner.id).every((l) => l.actor_name === 'Olive')).toBe(true);
  });

  test('a member of another shared album keeps their name after leaving this one', async () => {
    const id = await albumWith(member, 'viewer');
    await albumWith(member, 'viewer');
    await call(member, `select public.leave_album($1, true)`, [id]);
    const names = (await feed(owner, id)).filter((l) => l.actor_id === member.id).map((l) => l.actor_name);
    expect(names).toEqual(['Mina', 'Mina']);
  });
});
