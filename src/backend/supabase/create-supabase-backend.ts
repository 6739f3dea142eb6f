/** The Supabase backend: auth, the data ports, realtime and functions through supabase-js; files on S3 (supabase-files.ts). */
import { createClient } from '@supabase/supabase-js';
import { log } from '../../lib/log';
import type { StorageConfig } from '../../config';
import type { Backend, ShareLinksPort } from '../ports';
import { SupabaseActivity } from './supabase-activity';
import { SupabaseAlbums } from './supabase-albums';
import { SupabaseAuth } from './supabase-auth';
import { PostgrestCalls } from './supabase-calls';
import { SupabaseDevices } from './supabase-devices';
import { keptProfileIn, type KeyValueStorage } from './kept-profile';
import { takeEmailedSession } from './emailed-session';
import { SupabaseFetch } from './supabase-fetch';
import { SidecarWriter } from '../sidecar-writer';
import { accountSidecarOutbox, SidecarOutbox } from '../sidecar-outbox';
import { createSupabaseFiles } from './supabase-files';
import { SupabaseFunctions } from './supabase-functions';
import { SupabaseItemWrites } from './supabase-item-writes';
import { SupabaseItems } from './supabase-items';
import { SupabaseMembers } from './supabase-members';
import { SupabaseRealtime } from './supabase-realtime';
import { SupabaseSearch } from './supabase-search';
import { SupabaseShareLinks } from './supabase-share-links';
import { SupabaseSocial } from './supabase-social';

/** A WebSocket class for Realtime where the runtime has none (Node before 22). */
export type WebSocketClass = new (url: string, protocols?: string | string[]) => WebSocket;

export interface SupabaseBackendConfig {
  url: string;
  anonKey: string;
  oauthProviders?: string[];
  storage?: StorageConfig;
  fetch?: typeof fetch;
  /** Keep the session in storage across reloads (default true; false for tests and one-off clients). */
  persistSession?: boolean;
  /** Where a kept session (and its profile) lives: the browser's localStorage unless given. */
  storageArea?: KeyValueStorage;
  webSocket?: WebSocketClass;
}

/** Every domain, share links included. */
export type SupabaseBackend = Backend & { shareLinks: ShareLinksPort };

export function createSupabaseBackend(config: SupabaseBackendConfig): SupabaseBackend {
  const http = new SupabaseFetch(config.fetch);
  const persistSession = config.persistSession ?? true;
  const storageArea = persistSession ? (config.storageArea ?? (globalThis.localStorage as KeyValueStorage | undefined)) : undefined;
  // Before supabase-js reads the address: see [Note: Sessions from e-mailed links].
  const emailed = typeof window === 'undefined' ? null : takeEmailedSession(window.location, (url) => window.history.replaceState(window.history.state, '', url));
  const client = createClient(config.url, config.anonKey, {
    global: { fetch: http.fetch },
    auth: {
      persistSession,
      ...(config.storageArea ? { storage: config.storageArea } : {}),
      autoRefreshToken: persistSession,
      // Magic links and OAuth come back to /auth/callback with a PKCE code that supabase-js exchanges.
      detectSessionInUrl: true,
      flowType: 'pkce',
    },
    ...(config.webSocket ? { realtime: { transport: config.webSocket as never } } : {}),
  });
  const functions = new SupabaseFunctions(client);
  const adopted = emailed
    ? client.auth.setSession({ access_token: emailed.accessToken, refresh_token: emailed.refreshToken }).then(
        ({ error }) => error && log.warn('The session of the e-mailed link was refused; signing in is needed.', error),
        (e: unknown) => log.warn('The session of the e-mailed link could not be checked.', e),
      )
    : null;
  // Every data port sends its requests one way: errors and cancellation are handled once, in PostgrestCalls.
  const calls = new PostgrestCalls(client, http);
  const auth = new SupabaseAuth(client, http, config.oauthProviders ?? [], adopted, storageArea ? keptProfileIn(storageArea) : null);
  const files = createSupabaseFiles(client, config.url, config.anonKey, functions, config.storage);
  const sidecars = config.storage ? new SidecarWriter(files) : undefined;
  if (sidecars && typeof indexedDB !== 'undefined') {
    // Each account's owed sidecar writes are kept apart, and made good once it is signed in again.
    let owner: string | null = null;
    auth.onSessionChange((session) => {
      const next = session?.userId ?? null;
      if (next === owner) return;
      owner = next;
      sidecars.useOutbox(next ? SidecarOutbox.open(accountSidecarOutbox(next)) : null);
    });
  }
  return {
    capabilities: { storage: { onDevice: false, sidecars: config.storage !== undefined }, network: { required: true }, sharing: { members: true } },
    auth,
    albums: new SupabaseAlbums(calls),
    items: new SupabaseItems(calls),
    itemWrites: new SupabaseItemWrites(calls, sidecars),
    activity: new SupabaseActivity(calls),
    members: new SupabaseMembers(calls),
    social: new SupabaseSocial(calls),
    shareLinks: new SupabaseShareLinks(calls, functions),
    devices: new SupabaseDevices(calls),
    search: new SupabaseSearch(calls),
    realtime: new SupabaseRealtime(client, auth),
    functions,
    files,
  };
}
