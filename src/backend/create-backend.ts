import type { Backend } from './ports';
import type { BackendConfig } from '../config';
import { AppError } from '../lib/app-error';

/** Chooses the adapter once, at start-up. Each adapter loads only when chosen. */
export async function createBackend(config: BackendConfig): Promise<Backend> {
  switch (config.kind) {
    case 'local': {
      const { createLocalBackend } = await import('./local/create-local-backend');
      return createLocalBackend();
    }
    case 'supabase':
      throw new AppError('backend/unreachable', 'This build does not include the Supabase backend yet. Remove the Supabase settings to use the local backend.');
  }
}
