import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { RouterProvider } from 'react-router';
import { BackendContext, type BackendState } from '../backend/backend-context';
import { createBackend } from '../backend/create-backend';
import { backendConfigFromEnv } from '../config';
import { UploadEngineProvider } from '../features/uploads/upload-engine-provider';
import { ErrorPanel } from '../ui/error-panel';
import { createQueryClient } from './query-client';
import { createAppRouter } from './router';

type Boot = { status: 'loading' } | { status: 'ready'; state: BackendState } | { status: 'error'; error: unknown };

export function App() {
  const [boot, setBoot] = useState<Boot>({ status: 'loading' });
  const queryClient = useMemo(createQueryClient, []);
  const router = useMemo(createAppRouter, []);

  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    createBackend(backendConfigFromEnv(import.meta.env))
      .then((backend) => {
        if (cancelled) return;
        unsubscribe = backend.auth.onSessionChange((session) => setBoot({ status: 'ready', state: { backend, session } }));
      })
      .catch((error: unknown) => !cancelled && setBoot({ status: 'error', error }));
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }, []);

  if (boot.status === 'loading') return <div className="boot" aria-busy="true" />;
  if (boot.status === 'error') {
    return (
      <main className="page page--center">
        <ErrorPanel error={boot.error} />
      </main>
    );
  }
  return (
    <BackendContext.Provider value={boot.state}>
      <QueryClientProvider client={queryClient}>
        <UploadEngineProvider>
          <RouterProvider router={router} />
        </UploadEngineProvider>
      </QueryClientProvider>
    </BackendContext.Provider>
  );
}
