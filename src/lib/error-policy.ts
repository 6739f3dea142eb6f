/** What a screen does with a failed call: whether trying again can mend it, and whether to keep what it had. */
import { AppError } from './app-error';

/** A failure a second try can mend: no network, a server down, too many requests. */
export function isMendable(error: unknown): error is AppError {
  return error instanceof AppError && error.retryable;
}

/**
 * What a screen does when a query fails (`error`, null when none): a mendable failure leaves on screen what the
 * query had (`data`), loaded earlier or kept on the device, with a line saying it may be out of date. Anything
 * else (the album is gone, or no longer shared) replaces it with the error.
 */
export function showsWhatItHad(data: unknown, error: unknown): boolean {
  return data !== undefined && isMendable(error);
}
