import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { useBackend, useSession } from '../../backend/backend-context';
import type { Album } from '../../domain/entities';
import type { QueueSnapshot } from '../../upload/upload-engine';
import { LazyUploadEngine } from '../../upload/lazy-upload-engine';
import { accountUploadDb, DEFAULT_UPLOAD_DB } from '../../upload/upload-store';
import { log } from '../../lib/log';
import { albumKeys } from '../../shared/album-keys';
import { albumAbilities } from '../../lib/album-permissions';
import { askPersistentStorageOnce } from './persistent-storage';
import { broadcastUploadProgress } from './upload-progress-broadcast';

const EngineContext = createContext<LazyUploadEngine | null>(null);

/**
 * The queue this page runs: the device's own on a backend without accounts; on one with accounts, the queue of
 * the person signed in, and none while nobody is (see [Note: What the device keeps belongs to one account]).
 */
function queueDb(accounts: boolean, userId: string | null): string | null {
  if (!accounts) return DEFAULT_UPLOAD_DB;
  return userId === null ? null : accountUploadDb(userId);
}

/**
 * The upload engine of the queue this page runs, for as long as the same person is signed in; it resumes
 * whatever that queue held when the page last closed. Its code loads when there is work for it (see [Note: The
 * upload engine loads when there is work]). At sign-out, or when someone else signs in, it stops (its uploads
 * under way with it) before that person's queue is deleted.
 */
export function UploadEngineProvider({ children }: { children: ReactNode }) {
  const backend = useBackend();
  const session = useSession();
  const dbName = queueDb(backend.auth.capabilities().requiresSignIn, session?.userId ?? null);
  // Shared files wait in the device's inbox, whoever signs in to take them.
  const engine = useMemo(() => new LazyUploadEngine({ backend, dbName: dbName ?? DEFAULT_UPLOAD_DB, inboxDbName: DEFAULT_UPLOAD_DB }), [backend, dbName]);
  useEffect(() => {
    // Signed out, no queue is opened: the engine only reads as an empty queue (no screen that adds files shows).
    if (dbName === null) return;
    void engine.start();
    return () => engine.dispose();
  }, [engine, dbName]);
  // The queue keeps files not sent yet in this site's storage: at the first upload, ask that it be kept.
  useEffect(() => {
    const check = () => {
      if (engine.getSnapshot().totals.filesTotal > engine.getSnapshot().totals.filesDone) askPersistentStorageOnce();
    };
    check();
    return engine.subscribe(check);
  }, [engine]);
  const sessionRef = useRef(session);
  sessionRef.current = session;
  const qc = useQueryClient();
  useEffect(
    () =>
      broadcastUploadProgress(
        engine,
        backend.realtime,
        () => (sessionRef.current ? { userId: sessionRef.current.userId, displayName: sessionRef.current.profile.displayName } : null),
        // Only where the album's role (as last read or heard) lets this person add: a viewer never speaks.
        (albumId) => {
          const role = qc.getQueryData<Album>(albumKeys.detail(albumId))?.role;
          return !!role && albumAbilities(role).addItems;
        },
      ),
    [engine, backend.realtime, qc],
  );
  return <EngineContext.Provider value={engine}>{children}</EngineContext.Provider>;
}

/** The queue's commands; the engine's code loads with the first one. */
export function useUploadEngine(): LazyUploadEngine {
  const engine = useContext(EngineContext);
  if (!engine) throw new Error('useUploadEngine outside UploadEngineProvider');
  return engine;
}

/**
 * The queue as it is now. `load`: this screen lists the queue itself (finished uploads too), so the engine's
 * code loads now; elsewhere the queue reads as empty until there is work.
 */
export function useUploadQueue({ load = false }: { load?: boolean } = {}): QueueSnapshot {
  const engine = useUploadEngine();
  useEffect(() => {
    if (load) engine.load().catch((e: unknown) => log.warn('Upload queue could not load', e));
  }, [engine, load]);
  return useSyncExternalStore(engine.subscribe, engine.getSnapshot);
}
