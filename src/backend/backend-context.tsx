import { createContext, useContext } from 'react';
import type { AlbumBackend, Backend, Session } from './ports';

export interface BackendState {
  /** A member's backend, or a link visitor's, which has only what showing the album takes. */
  backend: Backend | AlbumBackend;
  session: Session | null;
}

export const BackendContext = createContext<BackendState | null>(null);

/** Whether the backend is a member's (it has every domain), not a link visitor's. */
export function isMemberBackend(backend: Backend | AlbumBackend): backend is Backend {
  return 'itemWrites' in backend;
}

/** A member's backend: for screens and hooks that only members reach. */
export function useBackend(): Backend {
  const state = useContext(BackendContext);
  if (!state) throw new Error('useBackend outside BackendContext');
  if (!isMemberBackend(state.backend)) throw new Error('useBackend under a link visitor: use useAlbumBackend');
  return state.backend;
}

/** What showing an album takes, for members and link visitors alike: the grid, the viewer, downloads. */
export function useAlbumBackend(): AlbumBackend {
  const state = useContext(BackendContext);
  if (!state) throw new Error('useAlbumBackend outside BackendContext');
  return state.backend;
}

/** A port the screen offers only where the backend has it: a call without it is a bug, not a refusal. */
export function requirePort<P>(port: P | undefined, name: string): P {
  if (port === undefined) throw new Error(`This backend has no ${name} port.`);
  return port;
}

export function useSession(): Session | null {
  const state = useContext(BackendContext);
  if (!state) throw new Error('useSession outside BackendContext');
  return state.session;
}
