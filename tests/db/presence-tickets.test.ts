/**
 * Presence tickets ([Note: Who is here is vouched for by the database]): a member's ticket names them, for
 * one album and a day; presence_people vouches for a ticket only while its holder is a member, with the display
 * name the database has, and only to a member. Run as signed-in users on real Postgres.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorOf, startCast, type Actor, type Harness } from './db-harness';

let db: Harness, owner: Actor, cora: Actor, vic: Actor, stranger: Actor;

beforeAll(async () => ({ db, owner, contributor: cora, viewer: vic, stranger } = await startCast()));
afterAll(() => db?.close());

const commit = { commit: true };
const call = <T extends Record<string, unknown> = Record<string, unknown>>(who: Actor, sql: string, params: unknown[] = []) =>
  db.as(who, (q) => q.query<T>(sql, params), commit);
const ticketOf = async (who: Actor, albumId: string) => (await call<{ t: string }>(who, `select public.presence_ticket($1) as t`, [albumId]))[0]!.t;
const people = (who: Actor, albumId: string, tickets: string[]) =>
  call<{ ticket: string; user_id: string; display_name: string }>(who, `select * from public.presence_people($1, $2)`, [albumId, tickets]);

async function album(title: string): Promise<string> {
  const [a] = await call<{ id: string }>(owner, `select id from public.create_album($1)`, [title]);
  for (const [who, role] of [[cora, 'contributor'], [vic, 'viewer']] as const) {
    const [inv] = await call<{ token: string }>(owner, `select * from public.create_invite($1, $2)`, [a!.id, role]);
    await call(who, `select * from public.accept_invite($1)`, [inv!.token]);
  }
  return a!.id;
}

describe('presence tickets', () => {
  test('a ticket vouches for its holder, by the name the database has, to every member', async () => {
    const id = await album('Here');
    const [o, c] = [await ticketOf(owner, id), await ticketOf(cora, id)];
    expect(o.startsWith(`${owner.id}.`)).toBe(true);
    const seen = await people(vic, id, [o, c]);
    expect(seen.map((r) => [r.ticket, r.user_id, r.display_name]).sort()).toEqual(
      [[o, owner.id, 'Olive'], [c, cora.id, 'Cora']].sort(),
    );
  });

  test('a ticket with another id, another album, a later expiry or a changed mac vouches for no one', async () => {
    const id = await album('Forged');
    const other = await album('Elsewhere');
    const c = await ticketOf(cora, id);
    const [, expires, mac] = c.split('.');
    const forged = [
      `${owner.id}.${expires}.${mac}`, // Cora's mac under the owner's id
      `${cora.id}.${Number(expires) + 86400 * 365}.${mac}`, // a year longer
      `${cora.id}.${expires}.${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'B' : 'A'}`,
      `${owner.id}.${expires}`,
      'not a ticket',
      'x'.repeat(300),
    ];
    expect(await people(vic, id, forged)).toEqual([]);
    // A real ticket of one album says nothing in another.
    expect(await people(vic, other, [c])).toEqual([]);
  });

  test('an expired ticket, or one of someone who left, vouches for no one', async () => {
    const id = await album('Gone');
    const c = await ticketOf(cora, id);
    const [, expires] = c.split('.');
    const past = String(Math.floor(Date.now() / 1000) - 1);
    const [m] = await db.query<{ mac: string }>(`select private.presence_mac($1::uuid, $2::uuid, $3::bigint) as mac`, [id, cora.id, past]);
    const expired = [{ t: `${cora.id}.${past}.${m!.mac}` }];
    expect(await people(vic, id, [expired[0]!.t])).toEqual([]);
    expect(Number(expires)).toBeGreaterThan(Date.now() / 1000 + 86000);
    await call(owner, `select public.remove_member($1, $2)`, [id, cora.id]);
    expect(await people(vic, id, [c])).toEqual([]);
  });

  test('a stranger gets no ticket and learns nothing; at most 200 tickets a call', async () => {
    const id = await album('Closed');
    const o = await ticketOf(owner, id);
    expect((await errorOf(ticketOf(stranger, id))).message).toBe('album/not-found');
    expect((await errorOf(people(stranger, id, [o]))).message).toBe('album/not-found');
    expect((await errorOf(people(vic, id, Array(201).fill(o)))).message).toBe('validation/invalid');
    expect((await errorOf(db.as(stranger, (q) => q.query(`select private.presence_mac($1::uuid, $2::uuid, 1)`, [id, owner.id])))).message).toMatch(/permission denied/);
  });
});
