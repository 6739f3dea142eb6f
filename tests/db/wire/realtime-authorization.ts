/**
 * Realtime Authorization for the emulator's private channels, run against the real RLS policies on
 * realtime.messages, as Realtime does it (supabase/realtime, lib/realtime/tenants/authorization.ex):
 *   - read (joining, receiving broadcast and presence): in a transaction, probe rows `{topic, extension}` are
 *     inserted for each extension asked about, then, as the caller's role with `realtime.topic` and the JWT
 *     claims set, Realtime selects them back: an extension is readable when its row is visible. Rolled back.
 *   - write (sending a broadcast, tracking presence): as the caller, one row `{topic, extension}` is inserted;
 *     an insufficient_privilege error (an RLS refusal) means no. Rolled back.
 * Only the roles PostgREST would use (anon, authenticated) are served; the answer for one caller and topic
 * is not cached here, since Realtime keeps it per channel (the emulator does the same).
 */
import { randomUUID } from 'node:crypto';
import type { Actor, Harness, Queryable } from '../db-harness';
import type { Claims } from './jwt-hs256';

export type Extension = 'broadcast' | 'presence';

function actorOf(claims: Claims): Actor {
  return claims.role === 'authenticated' && typeof claims.sub === 'string'
    ? { id: claims.sub, email: typeof claims.email === 'string' ? claims.email : null }
    : { id: null };
}

/** What Realtime's set_conn_config sets before a policy is asked. */
async function setContext(q: Queryable, topic: string, claims: Claims): Promise<void> {
  await q.query(
    `select set_config('realtime.topic', $1, true), set_config('request.jwt.claims', $2, true),
            set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $4, true)`,
    [topic, JSON.stringify(claims), typeof claims.sub === 'string' ? claims.sub : '', String(claims.role)],
  );
}

export class RealtimeAuthorization {
  constructor(private readonly db: Harness) {}

  /** Which of `extensions` the caller may read on `topic` (the topic without its `realtime:` prefix). */
  async read(topic: string, claims: Claims, extensions: readonly Extension[]): Promise<Record<Extension, boolean | null>> {
    const ids = extensions.map(() => randomUUID());
    const role = claims.role === 'authenticated' ? 'authenticated' : 'anon';
    const visible = await this.db.as(actorOf(claims), async (q) => {
      // The probes are written with Realtime's own rights, then read back as the caller.
      await q.query('reset role');
      for (const [i, extension] of extensions.entries()) {
        await q.query('insert into realtime.messages (id, topic, extension) values ($1, $2, $3)', [ids[i], topic, extension]);
      }
      await q.query(`set local role ${role}`);
      await setContext(q, topic, claims);
      const rows = await q.query<{ id: string }>('select id::text as id from realtime.messages where id = any($1::uuid[])', [ids]);
      return new Set(rows.map((r) => r.id));
    });
    const out: Record<Extension, boolean | null> = { broadcast: null, presence: null };
    for (const [i, extension] of extensions.entries()) out[extension] = visible.has(ids[i]!);
    return out;
  }

  /** Whether the caller may send `extension` messages on `topic`. */
  async write(topic: string, claims: Claims, extension: Extension): Promise<boolean> {
    try {
      await this.db.as(actorOf(claims), async (q) => {
        await setContext(q, topic, claims);
        await q.query('insert into realtime.messages (topic, extension) values ($1, $2)', [topic, extension]);
      });
      return true;
    } catch (e) {
      if ((e as { code?: unknown }).code === '42501') return false;
      throw e;
    }
  }
}
