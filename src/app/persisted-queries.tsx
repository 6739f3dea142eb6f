import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useBackend, useSession } from '../backend/backend-context';
import { applyNetworkDefaults } from './query-client';

// Loaded only on backends with a server: the local backend's first screen does not carry it.
const persistence = () => import('./query-persistence');

/**
 * Keeps the signed-in person's browsing queries on the device, on backends whose data is on a server (see
 * [Note: The query cache kept on the device]). The screens mount once that person's copy is restored, so
 * what was seen before shows at once, offline too.
 */
export function PersistedQueries({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const onServer = useBackend().capabilities.network.required;
  const userId = useSession()?.userId ?? null;
  const [restoredFor, setRestoredFor] = useState<string | null>(null);
  const lastUser = useRef<string | null>(null);
  // Before the first screen renders, so no query starts with the wrong mode.
  useState(() => applyNetworkDefaults(client, onServer));

  useEffect(() => {
    if (!onServer) return;
    if (lastUser.current !== userId && lastUser.current !== null) {
      // Another person (or nobody) now: nothing the last one saw stays in memory either.
      client.clear();
    }
    lastUser.current = userId;
    if (userId === null) {
      void persistence()
        .then((p) => p.forgetAllQueries())
        .catch(() => undefined);
      return;
    }
    let stop: (() => void) | null = null;
    let cancelled = false;
    void persistence()
      .then((p) => p.startQueryPersistence(client, { userId }))
      .then(
        (s) => {
          if (cancelled) s();
          else {
            stop = s;
            setRestoredFor(userId);
          }
        },
        // The module itself failed to load (a deploy replaced it): the screens run online, as without it.
        () => !cancelled && setRestoredFor(userId),
      );
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [client, onServer, userId]);

  if (onServer && userId !== null && restoredFor !== userId) return null;
  return children;
}
