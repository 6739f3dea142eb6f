/**
 * Signed-in devices (20261127100000_device_sessions.sql): each person sees and signs out only their own
 * devices. A device row is stamped with the caller's Auth session (the access token's `session_id`), which
 * no client can name, and signing a device out deletes that session, as GoTrue's own sign-out does.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { errorOf, startDb, type Actor, type Harness, type Queryable } from './db-harness';
import { GOTRUE_SCHEMA_SQL } from './wire/gotrue-emulator';

let db: Harness;
let ada: Actor;
let bob: Actor;

beforeAll(async () => {
  db = await startDb();
  // GoTrue's sessions and refresh tokens, which a Supabase project has and the functions read.
  await db.exec(GOTRUE_SCHEMA_SQL);
});
// People of each test's own: a list of someone's devices holds only what that test made.
beforeEach(async () => {
  ada = await db.createUser('Ada');
  bob = await db.createUser('Bob');
});
afterAll(async () => {
  await db?.close();
});

/** A signed-in session of `who` in auth.sessions, with a refresh token, as GoTrue makes at sign-in. */
async function signIn(who: Actor): Promise<string> {
  const id = randomUUID();
  await db.query(`insert into auth.sessions (id, user_id) values ($1, $2)`, [id, who.id]);
  await db.query(`insert into auth.refresh_tokens (token, user_id, session_id) values ($1, $2, $3)`, [randomUUID(), who.id, id]);
  return id;
}

/** Runs `fn` as `who` signed in with session `sessionId` (the JWT claims PostgREST would set), committed. */
function asSession<T>(who: Actor, sessionId: string, fn: (q: Queryable) => Promise<T>): Promise<T> {
  return db.as(
    who,
    async (q) => {
      const claims = { sub: who.id, role: 'authenticated', aud: 'authenticated', email: who.email, session_id: sessionId };
      await q.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claims)]);
      return fn(q);
    },
    { commit: true },
  );
}

type DeviceRow = {
  id: string;
  label: string;
  kind: string;
  installed_pwa: boolean;
  last_seen_at: string;
  current: boolean;
};

const touch = (who: Actor, session: string, id: string, label = 'Chrome 131 on Android, Pixel 8', kind = 'mobile', installed = false) =>
  asSession(who, session, (q) => q.query(`select public.touch_device($1, $2, $3, $4)`, [id, label, kind, installed]));
const list = (who: Actor, session: string) => asSession(who, session, (q) => q.query<DeviceRow>(`select * from public.list_devices()`));
const signOutDevice = (who: Actor, session: string, id: string) => asSession(who, session, (q) => q.query(`select public.sign_out_device($1)`, [id]));
const sessionExists = async (id: string) => (await db.query(`select 1 from auth.sessions where id = $1`, [id])).length === 1;
const refreshTokens = async (session: string) => Number((await db.query<{ n: number }>(`select count(*)::int as n from auth.refresh_tokens where session_id = $1`, [session]))[0]?.n);

describe('devices', () => {
  test('a device is listed with its label, kind, whether installed and when last seen; the asking one is marked current', async () => {
    const [phone, laptop] = [await signIn(ada), await signIn(ada)];
    const [phoneId, laptopId] = [randomUUID(), randomUUID()];
    await touch(ada, phone, phoneId, 'Chrome 131 on Android, Pixel 8', 'mobile', true);
    await touch(ada, laptop, laptopId, 'Firefox 133 on Windows', 'desktop');

    const seen = await list(ada, phone);
    expect(seen.map((d) => [d.id, d.label, d.kind, d.installed_pwa, d.current])).toEqual([
      [laptopId, 'Firefox 133 on Windows', 'desktop', false, false],
      [phoneId, 'Chrome 131 on Android, Pixel 8', 'mobile', true, true],
    ]);
    expect(Date.now() - new Date(seen[0]!.last_seen_at).getTime()).toBeLessThan(60_000);
    // The session is the server's to stamp: a row names the session that touched it, read by nobody but its owner.
    const [row] = await db.query<{ session_id: string }>(`select session_id from public.devices where id = $1`, [phoneId]);
    expect(row?.session_id).toBe(phone);
  });

  test('a person sees none of another person\'s devices, and signing out one of them changes nothing', async () => {
    const adaSession = await signIn(ada);
    const bobSession = await signIn(bob);
    const adaDevice = randomUUID();
    await touch(ada, adaSession, adaDevice);
    await touch(bob, bobSession, randomUUID(), 'Safari 18 on iOS, iPhone');

    expect((await list(bob, bobSession)).map((d) => d.label)).toEqual(['Safari 18 on iOS, iPhone']);
    const direct = await asSession(bob, bobSession, (q) => q.query(`select * from public.devices`));
    expect(direct.every((d) => d.user_id === bob.id)).toBe(true);

    await signOutDevice(bob, bobSession, adaDevice);
    expect(await sessionExists(adaSession)).toBe(true);
    expect((await list(ada, adaSession)).some((d) => d.id === adaDevice)).toBe(true);
  });

  test('signing out one of one\'s own other devices deletes its session and refresh tokens, and it leaves the list', async () => {
    const [here, there] = [await signIn(ada), await signIn(ada)];
    const [hereId, thereId] = [randomUUID(), randomUUID()];
    await touch(ada, here, hereId);
    await touch(ada, there, thereId, 'Edge 131 on Windows 11', 'desktop');
    expect(await refreshTokens(there)).toBe(1);

    await signOutDevice(ada, here, thereId);
    expect(await sessionExists(there)).toBe(false);
    expect(await refreshTokens(there)).toBe(0);
    expect(await sessionExists(here)).toBe(true);
    const ids = (await list(ada, here)).map((d) => d.id);
    expect(ids).toContain(hereId);
    expect(ids).not.toContain(thereId);
    // Again, or for an id that never was: nothing to do, no error.
    await signOutDevice(ada, here, thereId);
    await signOutDevice(ada, here, randomUUID());
  });

  test('devices whose session ended elsewhere (sign out of all other devices) leave the list and are cleared at the next touch', async () => {
    const [here, other] = [await signIn(ada), await signIn(ada)];
    const [hereId, otherId] = [randomUUID(), randomUUID()];
    await touch(ada, here, hereId);
    await touch(ada, other, otherId);
    // What GoTrue's logout with scope=others does.
    await db.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [ada.id, here]);
    expect((await list(ada, here)).map((d) => d.id)).toEqual([hereId]);
    await touch(ada, here, hereId);
    expect(await db.query(`select 1 from public.devices where id = $1`, [otherId])).toEqual([]);
  });

  test('a browser whose storage was cleared keeps one row for its session', async () => {
    const session = await signIn(bob);
    const [before, after] = [randomUUID(), randomUUID()];
    await touch(bob, session, before);
    await touch(bob, session, after);
    expect((await list(bob, session)).filter((d) => d.current).map((d) => d.id)).toEqual([after]);
  });

  test('no client writes the table itself: rows, sessions and times come only from the functions', async () => {
    const session = await signIn(bob);
    const id = randomUUID();
    await touch(bob, session, id);
    const adaSession = await signIn(ada);
    const writes = [
      `insert into public.devices (user_id, id, label, kind, session_id) values ('${bob.id}', '${randomUUID()}', 'Forged', 'desktop', '${adaSession}')`,
      `update public.devices set last_seen_at = now() + interval '1 year' where id = '${id}'`,
      `delete from public.devices where id = '${id}'`,
    ];
    for (const sql of writes) expect((await errorOf(asSession(bob, session, (q) => q.query(sql)))).code, sql).toBe('42501');
  });

  test('touch_device refuses a label or kind outside the rules, and anyone signed out', async () => {
    const session = await signIn(ada);
    for (const [label, kind, field] of [['', 'mobile', 'label'], ['x'.repeat(121), 'mobile', 'label'], ['Bad\u0007bell', 'mobile', 'label'], ['Ok', 'watch', 'kind']] as const) {
      const e = await errorOf(touch(ada, session, randomUUID(), label, kind));
      expect([e.code, e.message], field).toEqual(['P0001', 'validation/invalid']);
    }
    const anon = await errorOf(db.as({ id: null }, (q) => q.query(`select public.list_devices()`)));
    expect(anon.code).toBe('42501');
  });
});
