/** The error codes of the product's error catalogue (PRODUCT.md §8). */
export const ERROR_CODES = [
  'auth/invalid-credentials',
  'auth/email-not-confirmed',
  'auth/session-expired',
  'album/not-found',
  'album/forbidden',
  'item/not-found',
  'validation/invalid',
  'upload/too-large',
  'upload/empty',
  'upload/unsupported',
  'upload/quota-exceeded',
  'upload/interrupted',
  'upload/integrity',
  'image/undecodable',
  'image/too-large',
  'share/not-found',
  'share/expired',
  'share/revoked',
  'share/password-required',
  'share/wrong-password',
  'share/rate-limited',
  'invite/not-found',
  'invite/expired',
  'invite/revoked',
  'invite/used-up',
  'storage/cors',
  'storage/clock-skew',
  'storage/denied',
  'backend/unreachable',
  'offline',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Codes worth trying again without the user changing anything. */
const RETRYABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'upload/interrupted',
  'upload/integrity',
  'backend/unreachable',
  'offline',
  'share/rate-limited',
]);

export interface AppErrorOptions {
  cause?: unknown;
  retryable?: boolean;
  retryAfterMs?: number;
  /** Extra facts for the UI (for example the CORS rule to add, or which field failed). */
  details?: Record<string, unknown>;
}

/** The one error type every port throws. Adapters translate SDK and HTTP errors into it at the boundary. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(stripQueryStrings(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.retryable = options.retryable ?? RETRYABLE.has(code);
    this.retryAfterMs = options.retryAfterMs;
    this.details = options.details;
  }

  /** A plain object that survives structured cloning (IndexedDB, postMessage). */
  toJSON(): SerializedAppError {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }

  static fromJSON(json: SerializedAppError): AppError {
    return new AppError(json.code, json.message, {
      retryable: json.retryable,
      ...(json.retryAfterMs === undefined ? {} : { retryAfterMs: json.retryAfterMs }),
      ...(json.details === undefined ? {} : { details: json.details }),
    });
  }
}

export interface SerializedAppError {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  retryAfterMs?: number;
  details?: Record<string, unknown>;
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/** True for a cancellation, which is never shown to the user as an error. */
export function isAbortError(e: unknown): boolean {
  return (
    (e instanceof DOMException && (e.name === 'AbortError' || e.name === 'TimeoutError')) ||
    (e instanceof Error && e.name === 'AbortError')
  );
}

/** The error an aborted operation rejects with, as `fetch` and `AbortSignal` make it: the one constructor of it. */
export function abortError(message = 'The operation was aborted.'): DOMException {
  return new DOMException(message, 'AbortError');
}

/** The AbortError to throw for a fired signal (its own reason when that is one). */
export function abortErrorOf(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  return isAbortError(reason) ? reason : abortError();
}

/** Throws the signal's AbortError when it has been aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError();
}

/** Presigned URLs carry credentials in their query strings: never let them reach an error or a log. */
export function stripQueryStrings(text: string): string {
  return text.replace(/\b((?:https?|wss?|blob):[^\s?#"']+)\?[^\s#"']*/g, '$1');
}

/** Wraps anything thrown into an AppError, keeping AppErrors and AbortErrors as they are. */
export function toAppError(e: unknown, fallback: ErrorCode = 'backend/unreachable'): AppError {
  if (e instanceof AppError) return e;
  if (typeof navigator !== 'undefined' && navigator.onLine === false) {
    return new AppError('offline', 'You are offline.', { cause: e });
  }
  const message = e instanceof Error ? e.message : String(e);
  return new AppError(fallback, message, { cause: e });
}
