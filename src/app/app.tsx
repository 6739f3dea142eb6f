import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { RouterProvider } from 'react-router';
import { BackendContext, type BackendState } from '../backend/backend-context';
import { AppUpdateBanner } from '../features/app-update/app-update-banner';
import { DeviceHeartbeat } from '../features/devices/device-heartbeat';
import { DeviceOwner } from '../features/devices/device-owner';
import { UploadEngineProvider } from '../features/uploads/upload-engine-provider';
import { CONFIG_INVALID } from '../lib/error-messages';
import { ErrorPanel } from '../ui/error-panel';
import { PersistedQueries } from './persisted-queries';
import { startBoot } from './boot';
import { ToastProvider } from '../ui/toast';
import { createQueryClient } from './query-client';
import { createAppRouter } from './router';
import { ConfigError } from './runtime-config';

type Boot = { status: 'loading' } | { status: 'ready'; state: BackendState } | { status: 'error'; error: unknown };

export function App() {
  const [boot, setBoot] = useState<Boot>({ status: 'loading' });
  const queryClient = useMemo(createQueryClient, []);
  const router = useMemo(createAppRouter, []);

  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    startBoot()
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

  if (boot.status === 'loading') {
    return (
      <div className="boot" aria-busy="true">
        <img src="/icon.svg" alt="" width={48} height={48} />
        <span className="visually-hidden">Opening Shoebox…</span>
      </div>
    );
  }
  if (boot.status === 'error') {
    return (
      <main className="page page--center">
        {boot.error instanceof ConfigError ? (
          <div className="error-panel" role="alert" data-error-code="config">
            <h1 className="error-panel__title" style={{ fontSize: 18 }}>{CONFIG_INVALID.title}</h1>
            <p>{boot.error.message}</p>
            <p className="error-panel__action">{CONFIG_INVALID.action}</p>
          </div>
        ) : (
          <ErrorPanel error={boot.error} onRetry={() => window.location.reload()} />
        )}
      </main>
    );
  }
  return (
    <BackendContext.Provider value={boot.state}>
      <QueryClientProvider client={queryClient}>
        <PersistedQueries>
          <DeviceOwner>
            <UploadEngineProvider>
              <ToastProvider>
                <DeviceHeartbeat />
                <RouterProvider router={router} />
                <AppUpdateBanner />
              </ToastProvider>
            </UploadEngineProvider>
          </DeviceOwner>
        </PersistedQueries>
      </QueryClientProvider>
    </BackendContext.Provider>
  );
}
