import { createContext, useContext } from 'react';
import type { Backend, Session } from './ports';

export interface BackendState {
  backend: Backend;
  session: Session | null;
}

export const BackendContext = createContext<BackendState | null>(null);

export function useBackend(): Backend {
  const state = useContext(BackendContext);
  if (!state) throw new Error('useBackend outside BackendContext');
  return state.backend;
}

export function useSession(): Session | null {
  const state = useContext(BackendContext);
  if (!state) throw new Error('useSession outside BackendContext');
  return state.session;
}
