/**
 * The port contracts against a real Supabase project, when one is given:
 *   SUPABASE_TEST_URL, SUPABASE_TEST_ANON_KEY, SUPABASE_TEST_EMAIL, SUPABASE_TEST_PASSWORD
 *   (and SUPABASE_TEST_EMAIL_2, SUPABASE_TEST_PASSWORD_2 for the realtime pair: a second member).
 * The project must have the migrations of supabase/migrations applied. Without these settings the suite
 * does not run, and one test says so.
 */
import { createClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { describeAuthPortContract } from '../../testing/contract/auth-port-contract';
import { describeDataPortsContract } from '../../testing/contract/data-ports-contract';
import { describeRealtimePortContract } from '../../testing/contract/realtime-port-contract';
import type { Backend } from '../ports';
import { createSupabaseBackend, type WebSocketClass } from './create-supabase-backend';
import { SilentWebSocket } from '../../testing/supabase-wire-stub';

const env = process.env;
const url = env.SUPABASE_TEST_URL ?? '';
const anonKey = env.SUPABASE_TEST_ANON_KEY ?? '';
const user1 = { email: env.SUPABASE_TEST_EMAIL ?? '', password: env.SUPABASE_TEST_PASSWORD ?? '' };
const user2 = { email: env.SUPABASE_TEST_EMAIL_2 ?? '', password: env.SUPABASE_TEST_PASSWORD_2 ?? '' };
const nativeWebSocket = (globalThis as { WebSocket?: WebSocketClass }).WebSocket;

const live = Boolean(url && anonKey && user1.email && user1.password);
const liveRealtime = live && Boolean(user2.email && user2.password && nativeWebSocket);

function mode(): string {
  if (!url) return 'Supabase live suite not run: SUPABASE_TEST_URL is not set';
  if (!anonKey) return 'Supabase live suite not run: SUPABASE_TEST_ANON_KEY is not set';
  if (!live) return 'Supabase live suite not run: SUPABASE_TEST_EMAIL and SUPABASE_TEST_PASSWORD are not set';
  if (!liveRealtime) {
    return `Supabase live suite runs the data and auth contracts against ${new URL(url).host}; realtime not run: ${
      nativeWebSocket ? 'SUPABASE_TEST_EMAIL_2 and SUPABASE_TEST_PASSWORD_2 are not set' : 'this Node has no WebSocket (Node 22 or later has one)'
    }`;
  }
  return `Supabase live suite runs the data, auth and realtime contracts against ${new URL(url).host}`;
}

async function signedInBackend(user: { email: string; password: string }): Promise<Backend> {
  const backend = createSupabaseBackend({ url, anonKey, persistSession: false, webSocket: nativeWebSocket ?? (SilentWebSocket as never) });
  await backend.auth.signInWithPassword(user.email, user.password);
  return backend;
}

describe('Supabase live suite', () => {
  it('states whether it runs against a real project', () => {
    const line = mode();
    console.info(line);
    expect(line.startsWith(live ? 'Supabase live suite runs' : 'Supabase live suite not run:')).toBe(true);
  });
});

describe.runIf(live)('Supabase live: contracts', () => {
  describeDataPortsContract('supabase (live)', () => signedInBackend(user1));
  describeAuthPortContract('supabase (live)', () => signedInBackend(user1));
});

describe.runIf(liveRealtime)('Supabase live: realtime', () => {
  /** Invites user 2 into user 1's album through the SQL functions, as the invite screens do. */
  async function share(albumId: string): Promise<void> {
    const owner = createClient(url, anonKey, { auth: { persistSession: false } });
    const member = createClient(url, anonKey, { auth: { persistSession: false } });
    await owner.auth.signInWithPassword(user1);
    await member.auth.signInWithPassword(user2);
    const invite = await owner.rpc('create_invite', { p_album_id: albumId, p_role: 'editor' });
    if (invite.error) throw new Error(invite.error.message);
    const token = (invite.data as { token: string }[])[0]!.token;
    const accepted = await member.rpc('accept_invite', { p_token: token });
    if (accepted.error) throw new Error(accepted.error.message);
  }
  describeRealtimePortContract('supabase (live)', async () => ({ a: await signedInBackend(user1), b: await signedInBackend(user2), share }));
});
