import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useBackend } from '../../backend/backend-context';
import { UploadEngine, type QueueSnapshot } from '../../upload/upload-engine';

const EngineContext = createContext<UploadEngine | null>(null);

/** One upload engine for the app's lifetime; it resumes whatever the queue held when the page last closed. */
export function UploadEngineProvider({ children }: { children: ReactNode }) {
  const backend = useBackend();
  const [engine] = useState(() => new UploadEngine({ backend }));
  useEffect(() => {
    void engine.start();
    return () => engine.dispose();
  }, [engine]);
  return <EngineContext.Provider value={engine}>{children}</EngineContext.Provider>;
}

export function useUploadEngine(): UploadEngine {
  const engine = useContext(EngineContext);
  if (!engine) throw new Error('useUploadEngine outside UploadEngineProvider');
  return engine;
}

export function useUploadQueue(): QueueSnapshot {
  const engine = useUploadEngine();
  return useSyncExternalStore(engine.subscribe, engine.getSnapshot);
}
