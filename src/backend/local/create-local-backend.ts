/** The embedded backend: rows in IndexedDB, bytes in OPFS, live updates across tabs, one local profile. */
import type { Backend } from '../ports';
import { LocalAuth } from './local-auth';
import { LocalData } from './local-data';
import { LocalDb } from './local-db';
import { LocalFiles } from './local-files';
import { LocalFunctions } from './local-functions';
import { LocalRealtime } from './local-realtime';

export interface LocalBackendOptions {
  /** IndexedDB database name. */
  dbName?: string;
  /** Directory under the origin's private file system root. */
  opfsDir?: string;
  /** BroadcastChannel name shared by the tabs of this backend. */
  channelName?: string;
}

export const LOCAL_DEFAULTS = { dbName: 'shoebox', opfsDir: 'shoebox', channelName: 'shoebox' } as const;

export function createLocalBackend(opts: LocalBackendOptions = {}): Backend {
  const db = new LocalDb(opts.dbName ?? LOCAL_DEFAULTS.dbName);
  const files = new LocalFiles(opts.opfsDir ?? LOCAL_DEFAULTS.opfsDir);
  // The realtime hub needs the profile for presence, and the profile is the auth port's: tie them late.
  let auth: LocalAuth | null = null;
  const realtime = new LocalRealtime(opts.channelName ?? LOCAL_DEFAULTS.channelName, () => auth!.profile());
  auth = new LocalAuth(db, realtime);
  const data = new LocalData({ db, files, realtime, profile: () => auth.profile() });
  return { capabilities: { storage: { onDevice: true }, network: { required: false }, sharing: { members: false, links: false } }, auth, data, realtime, functions: new LocalFunctions(data), files };
}
