import { useEffect, useRef } from 'react';
import { useBackend } from '../../backend/backend-context';
import type { ChangeEvent } from '../../backend/ports';

/** Changes heard within this long of the first are answered by one refresh: an upload of 500 files is 500 events. */
export const LIVE_REFRESH_MS = 400;

/**
 * Calls `refresh` once per burst of changes heard anywhere the person can see (`subscribe(null)`: on Supabase
 * their own channel, which says when an album or its items changed; on the local backend every album's and
 * item's change), and after a reconnection that may have missed some. `wants` picks the changes that count.
 */
export function useLiveAnywhere(refresh: () => void, opts: { active?: boolean; wants?: (ev: ChangeEvent) => boolean } = {}): void {
  const { realtime } = useBackend();
  const active = opts.active ?? true;
  const latest = useRef({ refresh, wants: opts.wants });
  latest.current = { refresh, wants: opts.wants };
  useEffect(() => {
    if (!active) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const soon = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        latest.current.refresh();
      }, LIVE_REFRESH_MS);
    };
    const unsubscribe = realtime.subscribe(null, {
      onChange: (ev) => (latest.current.wants?.(ev) ?? true) && soon(),
      // Back from a dropped connection (or joined after the data was read): what changed meanwhile was not heard.
      onJoined: ({ mayHaveMissed }) => mayHaveMissed && soon(),
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [realtime, active]);
}
