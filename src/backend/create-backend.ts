import type { Backend } from './ports';
import type { BackendConfig } from '../config';

/** Chooses the adapter once, at start-up. Each adapter loads only when chosen (supabase-js never loads for the local backend). */
export async function createBackend(config: BackendConfig): Promise<Backend> {
  switch (config.kind) {
    case 'local': {
      const { createLocalBackend } = await import('./local/create-local-backend');
      return createLocalBackend();
    }
    case 'supabase': {
      const { createSupabaseBackend } = await import('./supabase/create-supabase-backend');
      return createSupabaseBackend({
        url: config.url,
        anonKey: config.anonKey,
        oauthProviders: config.oauthProviders ?? [],
        ...(config.storage ? { storage: config.storage } : {}),
      });
    }
  }
}

/** Fetches the server backend's code ahead of `createBackend`, when a start can guess it will be chosen. */
export function preloadServerBackend(): void {
  void import('./supabase/create-supabase-backend').catch(() => undefined);
}

/**
 * A share link guest's backend, for the upload engine (share-upload), on the app's functions port; and the
 * guest's `join`. Loaded only when a guest adds files.
 */
export async function createGuestUploadBackend(config: import('./share/guest-backend').GuestBackendConfig) {
  const { createGuestBackend } = await import('./share/guest-backend');
  return createGuestBackend(config);
}

export async function joinShareAsGuest(functions: Backend['functions'], visit: string, name: string) {
  const { joinAsGuest } = await import('./share/guest-upload-client');
  return joinAsGuest(functions, visit, name);
}
