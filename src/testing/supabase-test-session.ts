/** A Supabase backend signed in over the stubbed wire, for the adapter's tests. */
import type { Backend } from '../backend/ports';
import { createSupabaseBackend } from '../backend/supabase/create-supabase-backend';
import type { KeyValueStorage } from '../backend/supabase/kept-profile';
import { ANON_KEY, PROJECT_URL, SilentWebSocket, tokenResponse, WireStub, type StubUser } from './supabase-wire-stub';

export const USER: StubUser = { id: '6f1d3a52-1111-4c3b-9a8e-2b8f0c1d2e3f', email: 'ada@example.com' };

export const PROFILE_ROW = {
  id: USER.id,
  display_name: 'Ada',
  avatar_key: null,
  created_at: '2024-01-01 00:00:00.123456+00',
};

export function stubBackend(stub: WireStub, oauthProviders: string[] = []): Backend {
  return createSupabaseBackend({
    url: PROJECT_URL,
    anonKey: ANON_KEY,
    fetch: stub.fetch,
    oauthProviders,
    persistSession: false,
    webSocket: SilentWebSocket as never,
  });
}

/** A browser's storage, as a map: backends given the same one are the same browser, started again. */
export function memoryStorage(): KeyValueStorage & { readonly items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

/** A backend keeping its session (and profile) in `storageArea`, as the app does in localStorage. */
export function stubBackendKeeping(stub: WireStub, storageArea: KeyValueStorage): Backend {
  return createSupabaseBackend({ url: PROJECT_URL, anonKey: ANON_KEY, fetch: stub.fetch, storageArea, webSocket: SilentWebSocket as never });
}

/** Signs in with a password over the stub; returns the access token requests must carry afterwards. */
export async function signedIn(): Promise<{ backend: Backend; stub: WireStub; token: string }> {
  const stub = new WireStub();
  const tokenBody = tokenResponse(USER);
  stub.on('POST', '/auth/v1/token', tokenBody);
  stub.on('GET', '/rest/v1/profiles', [PROFILE_ROW]);
  const backend = stubBackend(stub);
  await backend.auth.signInWithPassword(USER.email, 'correct horse');
  stub.clear();
  return { backend, stub, token: tokenBody.access_token as string };
}
