import type { LocalBackendOptions } from '../backend/local/create-local-backend';

let seq = 0;

/** A local backend's database, file folder and channel that no other test (or earlier run) shares. */
export function isolatedLocal(prefix: string): Required<LocalBackendOptions> {
  const tag = `${prefix}-${Date.now().toString(36)}-${seq++}`;
  return { dbName: tag, opfsDir: tag, channelName: tag };
}
