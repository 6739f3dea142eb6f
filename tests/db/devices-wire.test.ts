/**
 * Signed-in devices through the Supabase adapter, real supabase-js and our SQL, with GoTrue and PostgREST
 * emulated (tests/db/wire): one account on three browsers, another account beside it. Signing a device out
 * from another ends its session, so that browser's next refresh is refused and it is signed out there, as
 * on a hosted project. supabase-js keeps a session whose refresh was refused while its access token is still
 * valid, and signs out once it is not: access tokens here last 2 s (an hour on a hosted project), inside its
 * refresh margin (90 s), so every session read refreshes first, and the test waits out a token's life.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Backend, Session } from '../../src/backend/ports';
import type { DeviceInput } from '../../src/domain/entities';
import { createSupabaseBackend } from '../../src/backend/supabase/create-supabase-backend';
import { AppError } from '../../src/lib/app-error';
import { SilentWebSocket } from '../../src/testing/supabase-wire-stub';
import { startDb, type Harness } from './db-harness';
import { createWireEmulator, type WireEmulator } from './wire/wire-emulator';

let db: Harness;
let wire: WireEmulator;

beforeAll(async () => {
  db = await startDb();
  wire = await createWireEmulator(db, { accessTokenSeconds: TOKEN_SECONDS });
}, 300_000);
afterAll(async () => {
  await db?.close();
});

const PASSWORD = 'correct horse battery staple';
const TOKEN_SECONDS = 2;
/**
 * Every access token issued before now expires: the clock moves past their life, for the app and the emulated
 * project alike (one process, one clock).
 */
const tokensExpire = () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + TOKEN_SECONDS * 1000 + 1_100);
};
afterEach(() => vi.useRealTimers());

function browser(): Backend {
  return createSupabaseBackend({ url: wire.url, anonKey: wire.anonKey, fetch: wire.fetch, persistSession: false, webSocket: SilentWebSocket as never });
}

const device = (label: string, kind: DeviceInput['kind'] = 'desktop'): DeviceInput => ({ id: crypto.randomUUID(), label, kind, installed: false });

/** One account signed in on `n` browsers, each having touched its device. */
async function account(n: number): Promise<{ browsers: Backend[]; devices: DeviceInput[] }> {
  const email = `devices.${crypto.randomUUID().slice(0, 8)}@example.test`;
  const first = browser();
  await first.auth.signUp(email, PASSWORD, 'Dev');
  const browsers = [first];
  for (let i = 1; i < n; i++) {
    const b = browser();
    await b.auth.signInWithPassword(email, PASSWORD);
    browsers.push(b);
  }
  const devices = browsers.map((_, i) => device(`Browser ${i + 1} on Linux`));
  for (const [i, b] of browsers.entries()) await b.devices.touchDevice(devices[i]!);
  return { browsers, devices };
}

/** What the browser's app sees of its session now: signed in, or signed out (null), never a lingering one. */
async function sessionNow(b: Backend): Promise<Session | null> {
  try {
    return await b.auth.getSession();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe('auth/session-expired');
    return b.auth.getSession();
  }
}

describe('devices over the emulated wire', () => {
  it('lists every browser of the account, each marked current on its own list, and none of another account', async () => {
    const { browsers, devices } = await account(2);
    const other = await account(1);
    const [a, b] = browsers as [Backend, Backend];
    const ids = devices.map((d) => d.id).sort();
    expect((await a.devices.listDevices()).map((d) => d.id).sort()).toEqual(ids);
    expect((await a.devices.listDevices()).filter((d) => d.current).map((d) => d.id)).toEqual([devices[0]!.id]);
    expect((await b.devices.listDevices()).filter((d) => d.current).map((d) => d.id)).toEqual([devices[1]!.id]);
    expect((await other.browsers[0]!.devices.listDevices()).map((d) => d.id)).toEqual([other.devices[0]!.id]);
  });

  it('signing out another browser ends its session: its next refresh lands it signed out; the others stay signed in', async () => {
    const { browsers, devices } = await account(3);
    const [a, b, c] = browsers as [Backend, Backend, Backend];
    const changes: (Session | null)[] = [];
    const stop = b.auth.onSessionChange((s) => changes.push(s));
    expect(await sessionNow(b)).not.toBeNull();

    await a.devices.signOutDevice(devices[1]!.id);
    expect((await a.devices.listDevices()).map((d) => d.id).sort()).toEqual([devices[0]!.id, devices[2]!.id].sort());
    tokensExpire();
    expect(await sessionNow(b)).toBeNull();
    await expect.poll(() => changes.at(-1), { timeout: 5_000 }).toBeNull();
    stop();
    expect(await sessionNow(a)).not.toBeNull();
    expect(await sessionNow(c)).not.toBeNull();
  });

  it('a browser signed out from another learns it from the session check at once, its access token still valid; the others stay live', async () => {
    const { browsers, devices } = await account(3);
    const [a, b, c] = browsers as [Backend, Backend, Backend];
    const changes: (Session | null)[] = [];
    const stop = b.auth.onSessionChange((s) => changes.push(s));
    expect(await b.auth.checkSession()).toBe('live');

    await a.devices.signOutDevice(devices[1]!.id);
    expect(await b.auth.checkSession()).toBe('ended');
    await expect.poll(() => changes.at(-1), { timeout: 5_000 }).toBeNull();
    expect(await b.auth.getSession()).toBeNull();
    stop();
    expect(await a.auth.checkSession()).toBe('live');
    expect(await c.auth.checkSession()).toBe('live');
  });

  it('another account cannot sign out a browser of this one', async () => {
    const { browsers, devices } = await account(2);
    const stranger = await account(1);
    await stranger.browsers[0]!.devices.signOutDevice(devices[1]!.id);
    tokensExpire();
    expect(await sessionNow(browsers[1]!)).not.toBeNull();
    expect((await browsers[0]!.devices.listDevices()).map((d) => d.id).sort()).toEqual(devices.map((d) => d.id).sort());
  });

  it('signing out of all other devices leaves this one listed and signed in, and every other one signed out', async () => {
    const { browsers, devices } = await account(3);
    const [a, b, c] = browsers as [Backend, Backend, Backend];
    await a.devices.signOutOtherDevices();
    expect((await a.devices.listDevices()).map((d) => [d.id, d.current])).toEqual([[devices[0]!.id, true]]);
    tokensExpire();
    expect(await sessionNow(a)).not.toBeNull();
    expect(await sessionNow(b)).toBeNull();
    expect(await sessionNow(c)).toBeNull();
  });
});
