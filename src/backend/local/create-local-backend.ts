/** The embedded backend: rows in IndexedDB, bytes in OPFS, live updates across tabs, one local profile. */
import type { Backend } from '../ports';
import { lazyPort } from '../lazy-port';
import { LocalAuth } from './local-auth';
import { localActivity } from './local-activity';
import { localAlbums } from './local-albums';
import type { LocalDataDeps } from './local-data-deps';
import { LocalDb } from './local-db';
import { LocalDevices } from './local-devices';
import type { SidecarWriter } from '../sidecar-writer';
import type { Item } from '../../domain/entities';
import { log } from '../../lib/log';
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

/** How long after the start the sidecar writes a closed tab left owed are made good (not on the first screen's path). */
const OWED_SIDECARS_AFTER_MS = 3_000;

export const LOCAL_DEFAULTS = { dbName: 'shoebox', opfsDir: 'shoebox', channelName: 'shoebox' } as const;

/**
 * Every domain but share links (nothing leaves the device). The albums screen reads albums and activity; the
 * other domains (an album's items, uploads, comments, members) load with their first call, so the first screen
 * does not carry them. How each operation meets the database: local-data-deps.ts; indexes and counters:
 * [Note: Local item indexes] in local-db.ts.
 */
export function createLocalBackend(opts: LocalBackendOptions = {}): Backend {
  const dbName = opts.dbName ?? LOCAL_DEFAULTS.dbName;
  // Rows stored before version 3 get their search words, and before version 4 their sort time by the clock where
  // they were taken, in the background once the database is open.
  const db = new LocalDb(dbName, (upgraded, from) => {
    if (from < 3) void import('./local-words-fill').then((m) => m.searchWordsFilled(upgraded)).catch(() => undefined);
    if (from < 4) void import('./local-clock-fill').then((m) => m.fileByTakenClock(upgraded)).catch(() => undefined);
  });
  const files = new LocalFiles(opts.opfsDir ?? LOCAL_DEFAULTS.opfsDir);
  // The realtime hub needs the profile for presence, and the profile is the auth port's: tie them late.
  let auth: LocalAuth | null = null;
  const realtime = new LocalRealtime(opts.channelName ?? LOCAL_DEFAULTS.channelName, () => auth!.profile());
  auth = new LocalAuth(db, realtime);
  // The sidecar writer is loaded with the first edit, or a moment after the start to make good the writes a
  // closed tab left owed.
  let sidecars: Promise<SidecarWriter> | null = null;
  const sidecarWriter = () =>
    (sidecars ??= Promise.all([import('../sidecar-writer'), import('../sidecar-outbox')]).then(([w, o]) => {
      const writer = new w.SidecarWriter(files);
      if (typeof indexedDB !== 'undefined') writer.useOutbox(o.SidecarOutbox.open(`${dbName}-sidecars`));
      return writer;
    }));
  const writeSidecars = (items: readonly Item[]) => {
    // A writer that could not load (the app updated meanwhile) is loaded again with the next edit.
    sidecarWriter().then((w) => w.write(items)).catch((e: unknown) => {
      sidecars = null;
      log.warn('The sidecars of edited items could not be written', e);
    });
  };
  setTimeout(() => void writeOwedSidecars(`${dbName}-sidecars`, sidecarWriter).catch(() => (sidecars = null)), OWED_SIDECARS_AFTER_MS);
  const deps: LocalDataDeps = { db, files, sidecars: { write: writeSidecars }, realtime, profile: () => auth.profile() };
  // Others' unfinished uploads are the owner's settings screen's alone: their code is not loaded with the first upload.
  const pending = lazyPort(() => import('./local-pending-items').then((m) => m.localPendingItems(deps)));
  return {
    capabilities: { storage: { onDevice: true, sidecars: true }, network: { required: false }, sharing: { members: false } },
    auth,
    realtime,
    functions: new LocalFunctions(deps),
    files,
    albums: localAlbums(deps),
    activity: localActivity(deps),
    devices: new LocalDevices(),
    items: lazyPort(() => import('./local-item-pages').then((m) => m.localItems(deps))),
    itemWrites: lazyPort(() =>
      import('./local-item-writes').then((m) => ({ ...m.localItemWrites(deps), countPendingItems: pending.countPendingItems, clearPendingItems: pending.clearPendingItems })),
    ),
    members: lazyPort(() => import('./local-members').then((m) => m.localMembers(deps))),
    social: lazyPort(() => import('./local-social').then((m) => m.localSocial(deps))),
    search: lazyPort(() => import('./local-search').then((m) => new m.LocalSearch(deps))),
  };
}

/**
 * Loads the sidecar writer at the start only when a closed tab left writes owed: the outbox alone is opened to
 * see, and only if this device ever kept one (most never edit anything).
 */
export async function writeOwedSidecars(outboxName: string, writer: () => Promise<SidecarWriter>): Promise<void> {
  if (typeof indexedDB === 'undefined') return;
  if (typeof indexedDB.databases === 'function' && !(await indexedDB.databases()).some((d) => d.name === outboxName)) return;
  const { SidecarOutbox } = await import('../sidecar-outbox');
  const outbox = await SidecarOutbox.open(outboxName);
  const owed = await outbox.owed().finally(() => outbox.close());
  if (owed.length > 0) await writer();
}
