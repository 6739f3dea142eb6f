/** The local backend's AppErrors: its own refusals, and IndexedDB and OPFS failures translated at the boundary. */
import { AppError, isAbortError, throwIfAborted } from '../../lib/app-error';
import type { FieldRule } from '../../lib/error-messages';

function errorName(e: unknown): string {
  return e instanceof DOMException || e instanceof Error ? e.name : '';
}

function errorMessage(e: unknown): string {
  return e instanceof Error || e instanceof DOMException ? e.message : String(e);
}

/** The AppError for a storage failure; AppErrors pass through. Cancellations are handled by `guard`. */
export function toLocalError(e: unknown): AppError {
  if (e instanceof AppError) return e;
  switch (errorName(e)) {
    case 'QuotaExceededError':
      return new AppError(
        'upload/quota-exceeded',
        'This device has no room left for Shoebox. Free some space or delete albums, then try again.',
        { cause: e },
      );
    case 'SecurityError':
    case 'NotAllowedError':
      return new AppError(
        'storage/denied',
        'This browser does not let Shoebox keep data on this device (private browsing can block it).',
        { cause: e, retryable: false },
      );
    case 'DataError':
      return new AppError('validation/invalid', 'The request holds a value that cannot be stored.', { cause: e });
    default:
      return new AppError('backend/unreachable', `The storage on this device failed: ${errorMessage(e)}`, { cause: e });
  }
}

/**
 * Runs one port call: refuses an already aborted signal, and lets only AppError or the caller's own
 * AbortError out. (An IndexedDB request of an aborted transaction also fails with an AbortError; when the
 * caller did not cancel, that is a storage failure, not a cancellation.)
 */
export async function guard<T>(signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
  throwIfAborted(signal);
  try {
    return await fn();
  } catch (e) {
    if (isAbortError(e) && !(e instanceof AppError)) {
      if (signal?.aborted) throw e;
      throw new AppError('backend/unreachable', 'The storage on this device stopped the operation. Try again.', { cause: e });
    }
    throw toLocalError(e);
  }
}

export function albumNotFound(): AppError {
  return new AppError('album/not-found', 'This album does not exist or was deleted.', { retryable: false });
}

export function itemNotFound(): AppError {
  return new AppError('item/not-found', 'This item does not exist or was deleted.', { retryable: false });
}

/** A refused value: `message` is for the log; a `rule` the catalogue knows gives people a sentence. */
export function invalid(field: string, message: string, rule?: FieldRule, limit?: number): AppError {
  const details = { field, ...(rule === undefined ? {} : { rule }), ...(limit === undefined ? {} : { limit }) };
  return new AppError('validation/invalid', message, { details });
}
