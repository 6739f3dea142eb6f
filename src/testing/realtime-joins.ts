/**
 * A backend whose live channels tell the test when they are joined: a change made before a screen's
 * subscription is live may never reach it, so a test makes it once the channel says it hears everything.
 */
import type { Backend, RealtimeHandlers } from '../backend/ports';

export interface JoinsSeen {
  backend: Backend;
  /** The albums (null: the albums screen's channel) whose channel has been joined, in order, once per join. */
  joined: (string | null)[];
}

export function seeingJoins(backend: Backend): JoinsSeen {
  const joined: (string | null)[] = [];
  const realtime = backend.realtime;
  return {
    joined,
    backend: {
      ...backend,
      realtime: {
        subscribe: (albumId: string | null, handlers: RealtimeHandlers) =>
          realtime.subscribe(albumId, {
            ...handlers,
            onJoined: (info) => {
              joined.push(albumId);
              handlers.onJoined?.(info);
            },
          }),
        broadcast: (albumId, msg) => realtime.broadcast(albumId, msg),
      },
    },
  };
}
