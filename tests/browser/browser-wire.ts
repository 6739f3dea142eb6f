/**
 * An emulated Supabase project for browser tests (see wire-commands.ts): a `fetch` that hands each request to
 * the emulator in the Vitest process, and people signed up on it, each with their own real Supabase backend.
 */
import { commands } from 'vitest/browser';
import type { Backend } from '../../src/backend/ports';
import { createSupabaseBackend, type SupabaseBackend } from '../../src/backend/supabase/create-supabase-backend';
import type { KeyValueStorage } from '../../src/backend/supabase/kept-profile';
import { placeOriginalsWith } from '../../src/testing/contract/contract-fixtures';
import { SilentWebSocket } from '../../src/testing/supabase-wire-stub';
import type { SeedShareLink } from '../db/share-link-seed';
import type { WireInfo, WireRequest, WireResponse } from './wire-commands';

declare module 'vitest/browser' {
  interface BrowserCommands {
    wireStart: (opts?: { realtime?: boolean; functions?: string[] }) => Promise<WireInfo>;
    wireGuestShareLink: (id: string, albumId: string, ownerId: string, guestMaxFiles?: number | null) => Promise<string>;
    wireFetch: (id: string, req: WireRequest) => Promise<WireResponse>;
    wireUnserved: (id: string) => Promise<string[]>;
    wireExpireInvite: (id: string, inviteId: string) => Promise<void>;
    wirePlaceOriginal: (id: string, albumId: string, itemId: string) => Promise<void>;
    wireShareLink: (id: string, link: SeedShareLink) => Promise<string>;
    wireGuestItems: (id: string, linkId: string, name: string, count: number) => Promise<string[]>;
    wireStop: (id: string) => Promise<void>;
  }
}

export interface BrowserWire {
  fetch: typeof fetch;
  /** A new account, signed up with `name`, and its own backend. */
  person(name: string): Promise<Person>;
  /** A backend of someone with no account (a share link's visitor): supabase-js with the anon key only. */
  visitor(): Backend;
  /**
   * A browser's backend, nobody signed in yet, on which people sign in and out in turn. With `storageArea`, the
   * session is kept there (as in localStorage) and refreshed; `fetch` stands between it and the project.
   */
  browser(opts?: { storageArea?: KeyValueStorage; fetch?: typeof fetch }): Backend;
  /** A share link with guest uploads on (and at most `guestMaxFiles` per guest), made as `owner`; its token. */
  guestShareLink(albumId: string, owner: Person, guestMaxFiles?: number | null): Promise<string>;
  unserved(): Promise<string[]>;
  expireInvite(inviteId: string): Promise<void>;
  /** A share link written as the share-links function leaves it (tests/db/share-link-seed.ts); its id. */
  shareLink(link: SeedShareLink): Promise<string>;
  /** A guest named `name` adds `count` finished items through the link (as share-upload does); their ids. */
  guestItems(linkId: string, name: string, count: number): Promise<string[]>;
  stop(): Promise<void>;
}

export interface Person {
  backend: SupabaseBackend;
  id: string;
  name: string;
  email: string;
}

/** Every person's password. */
export const PASSWORD = 'correct horse battery staple';

const nullBody = new Set([101, 204, 205, 304]);

/**
 * With `realtime`, each person's backend hears the album's changes over a real WebSocket; otherwise none connects.
 * `functions` are served by real Deno (wire-commands.ts).
 */
export async function startBrowserWire(opts: { realtime?: boolean; functions?: string[] } = {}): Promise<BrowserWire> {
  const info = await commands.wireStart(opts);
  const wireFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.signal.aborted) throw new DOMException('This operation was aborted', 'AbortError');
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.text();
    const res = await commands.wireFetch(info.id, { url: request.url, method: request.method, headers: [...request.headers.entries()], body });
    return new Response(nullBody.has(res.status) ? null : res.body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  let accounts = 0;
  return {
    fetch: wireFetch,
    async person(name) {
      const backend = placeOriginalsWith(
        createSupabaseBackend({ url: info.url, anonKey: info.anonKey, fetch: wireFetch, persistSession: false, webSocket: (opts.realtime ? WebSocket : SilentWebSocket) as never }),
        (albumId, itemId) => commands.wirePlaceOriginal(info.id, albumId, itemId),
      );
      const email = `person${++accounts}.${crypto.randomUUID().slice(0, 8)}@example.test`;
      const session = await backend.auth.signUp(email, PASSWORD, name);
      if (!session) throw new Error('sign-up gave no session: the emulated project asks for no e-mail confirmation');
      return { backend, id: session.userId, name, email };
    },
    visitor: () => createSupabaseBackend({ url: info.url, anonKey: info.anonKey, fetch: wireFetch, persistSession: false, webSocket: SilentWebSocket as never }),
    browser: ({ storageArea, fetch = wireFetch } = {}) =>
      createSupabaseBackend({ url: info.url, anonKey: info.anonKey, fetch, persistSession: !!storageArea, ...(storageArea ? { storageArea } : {}), webSocket: SilentWebSocket as never }),
    guestShareLink: (albumId, owner, guestMaxFiles = null) => commands.wireGuestShareLink(info.id, albumId, owner.id, guestMaxFiles),
    unserved: () => commands.wireUnserved(info.id),
    expireInvite: (inviteId) => commands.wireExpireInvite(info.id, inviteId),
    shareLink: (link) => commands.wireShareLink(info.id, link),
    guestItems: (linkId, name, count) => commands.wireGuestItems(info.id, linkId, name, count),
    stop: () => commands.wireStop(info.id),
  };
}
