import type { Backend, FunctionsPort } from './ports';
import type { LinkVisitorBackend } from './link-types';
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

/** A public link's visitor's backend (src/backend/link): loaded only when a link is opened. */
export async function createLinkVisitorBackend(functions: FunctionsPort, token: string): Promise<LinkVisitorBackend> {
  const { createLinkVisitorBackend: create } = await import('./link/visitor-backend');
  return create(functions, token);
}

/**
 * A share link guest's backend, for the upload engine (share-upload), on the app's functions port; and the
 * guest's `join`. Loaded only when a guest adds files.
 */
export async function createGuestUploadBackend(config: import('./link/guest-backend').GuestBackendConfig) {
  const { createGuestBackend } = await import('./link/guest-backend');
  return createGuestBackend(config);
}

export async function joinShareAsGuest(functions: Backend['functions'], visit: string, name: string) {
  const { joinAsGuest } = await import('./link/guest-upload-client');
  return joinAsGuest(functions, visit, name);
}
