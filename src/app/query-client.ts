import { QueryClient } from '@tanstack/react-query';
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
