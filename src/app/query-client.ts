import { onlineManager, QueryClient } from '@tanstack/react-query';
import { AppError } from '../lib/app-error';

/** Retries only what can succeed on a second try (AppError.retryable), at most twice. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, error) => count < 2 && error instanceof AppError && error.retryable,
      },
      mutations: { retry: false },
    },
  });
}

/**
 * How queries wait for the network, by where the data lives. On the device (the local backend) nothing waits:
 * a query never needs the network. On a server, a query waits while the browser says it is offline, keeping
 * the data it has (restored from the device, see [Note: The query cache kept on the device]) instead of
 * failing into an error screen, and runs when the `online` event comes. TanStack Query assumes online until an
 * `offline` event, which a page loaded offline never gets: it is told the browser's state at start.
 */
export function applyNetworkDefaults(client: QueryClient, dataOnServer: boolean): void {
  const defaults = client.getDefaultOptions();
  if (!dataOnServer) {
    client.setDefaultOptions({ ...defaults, queries: { ...defaults.queries, networkMode: 'always' }, mutations: { ...defaults.mutations, networkMode: 'always' } });
    return;
  }
  if (typeof navigator !== 'undefined' && navigator.onLine === false) onlineManager.setOnline(false);
}
