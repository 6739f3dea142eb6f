/**
 * Every Supabase and HTTP failure becomes an AppError here, in one place: PostgREST error bodies
 * (`{code, message, details, hint}`), GoTrue errors, Edge Function responses and network failures.
 * AbortErrors are never translated: a cancellation is not an error the user sees.
 *
 * [Note: Supabase error convention]
 * The SQL functions raise `errcode 'P0001'` with the product's error code as the message and a sentence for
 * people as the detail; PostgREST returns that as HTTP 400 `{"code":"P0001","message":"album/not-found",
 * "details":"…"}`. A hint that is a JSON object (`{"field":"coverItemId"}`) becomes the AppError's details.
 * Postgres' own refusals (check, not-null, length, RLS) map to `validation/invalid` or `album/forbidden`;
 * "no rows" (PGRST116) maps to the not-found code of whatever the caller was reading.
 */
import { AppError, ERROR_CODES, isAbortError, type ErrorCode } from '../../lib/app-error';

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && KNOWN_CODES.has(value);
}

/** The error body PostgREST sends, and what postgrest-js makes of a network failure (status 0). */
export interface PostgrestFailure {
  code?: string | null;
  message?: string | null;
  details?: string | null;
  hint?: string | null;
}

export interface MappingContext {
  /** The not-found code of the resource being read (`album/not-found`, `item/not-found`, …). */
  notFound?: ErrorCode;
  /** From the response's `Retry-After`, when the server sent one. */
  retryAfterMs?: number;
}

const DEFAULT_SENTENCES: Partial<Record<ErrorCode, string>> = {
  'album/not-found': 'This album does not exist, or you are not a member of it.',
  'album/forbidden': 'Your role in this album does not allow that.',
  'item/not-found': 'This item does not exist or was deleted.',
  'validation/invalid': 'The request holds a value that is not allowed.',
  'auth/session-expired': 'Your session has expired. Sign in again.',
  'auth/invalid-credentials': 'The email or password is not right.',
  'auth/email-not-confirmed': 'Confirm your email address first: follow the link in the message we sent you.',
  'share/not-found': 'This share link does not exist.',
};

function sentence(code: ErrorCode, given: string | null | undefined): string {
  const text = given?.trim();
  return text ? text : (DEFAULT_SENTENCES[code] ?? 'The server refused the request.');
}

/** Milliseconds to wait from a `Retry-After` header: delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** A failure to reach the server at all: `offline` when the browser knows it is, else retryable unreachable. */
export function networkError(cause: unknown): AppError {
  if (isOffline()) return new AppError('offline', 'You are offline. This will continue when you are back online.', { cause });
  return new AppError('backend/unreachable', 'The server could not be reached. Try again in a moment.', { cause, retryable: true });
}

/** Errors the HTTP status alone decides, whatever the body says; null when the body must decide. */
export function httpStatusError(status: number, cause: unknown, ctx: MappingContext = {}): AppError | null {
  if (status === 0) return networkError(cause);
  if (status === 401) return new AppError('auth/session-expired', sentence('auth/session-expired', null), { cause, retryable: false });
  if (status === 429) {
    return new AppError('backend/unreachable', 'The server is busy with too many requests. Try again shortly.', {
      cause,
      retryable: true,
      ...(ctx.retryAfterMs === undefined ? {} : { retryAfterMs: ctx.retryAfterMs }),
    });
  }
  if (status >= 500) {
    return new AppError('backend/unreachable', 'The server had a problem. Try again in a moment.', {
      cause,
      retryable: true,
      ...(ctx.retryAfterMs === undefined ? {} : { retryAfterMs: ctx.retryAfterMs }),
    });
  }
  return null;
}

function hintDetails(hint: string | null | undefined): Record<string, unknown> | undefined {
  if (!hint || !hint.trim().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(hint);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const JWT_CODES = new Set(['PGRST300', 'PGRST301', 'PGRST302', 'PGRST303']);

/** A PostgREST error (with the HTTP status postgrest-js reported) as an AppError. */
export function postgrestError(error: PostgrestFailure, status: number, ctx: MappingContext = {}): AppError {
  const code = error.code ?? '';
  const message = error.message ?? '';
  const cause = { ...error, status };
  if (code === 'P0001' && isErrorCode(message)) {
    const details = hintDetails(error.hint);
    return new AppError(message, sentence(message, error.details), { cause, ...(details ? { details } : {}) });
  }
  if (JWT_CODES.has(code) || /jwt expired/i.test(message)) {
    return new AppError('auth/session-expired', sentence('auth/session-expired', null), { cause, retryable: false });
  }
  const byStatus = httpStatusError(status, cause, ctx);
  if (byStatus) return byStatus;
  switch (code) {
    case 'PGRST116':
      return new AppError(ctx.notFound ?? 'validation/invalid', sentence(ctx.notFound ?? 'validation/invalid', null), { cause });
    case '22P02':
      // Invalid text for a uuid: an id that cannot name anything names nothing.
      if (ctx.notFound) return new AppError(ctx.notFound, sentence(ctx.notFound, null), { cause });
      return new AppError('validation/invalid', sentence('validation/invalid', error.details), { cause });
    case '23514':
    case '23502':
    case '22001':
    case '23505':
    case '23503':
    case '22023':
    case '22007':
    case '22008':
      return new AppError('validation/invalid', sentence('validation/invalid', error.details), { cause });
    case '42501':
      return new AppError('album/forbidden', sentence('album/forbidden', null), { cause });
    case '57014':
      return new AppError('backend/unreachable', 'The server took too long to answer. Try again.', { cause, retryable: true });
  }
  if (status === 403) return new AppError('album/forbidden', sentence('album/forbidden', null), { cause });
  if (status === 404 && ctx.notFound) return new AppError(ctx.notFound, sentence(ctx.notFound, null), { cause });
  return new AppError('backend/unreachable', `The server refused the request${message ? `: ${message}` : '.'}`, { cause, retryable: false });
}

/** The shape of auth-js errors we read (AuthApiError, AuthRetryableFetchError, AuthSessionMissingError, …). */
interface AuthFailure {
  name?: string;
  message?: string;
  status?: number;
  code?: string;
}

const SESSION_CODES = new Set([
  'session_not_found',
  'session_expired',
  'refresh_token_not_found',
  'refresh_token_already_used',
  'bad_jwt',
  'no_authorization',
  'user_not_found',
]);
const RATE_CODES = new Set(['over_request_rate_limit', 'over_email_send_rate_limit', 'over_sms_send_rate_limit']);
const FIELD_CODES: Record<string, { field: string; message: string }> = {
  weak_password: { field: 'password', message: 'This password is too weak. Choose a longer one.' },
  email_address_invalid: { field: 'email', message: 'This email address is not valid.' },
  validation_failed: { field: 'email', message: 'The email or password is not valid.' },
  user_already_exists: { field: 'email', message: 'An account with this email address already exists. Sign in instead.' },
  email_exists: { field: 'email', message: 'An account with this email address already exists. Sign in instead.' },
  same_password: { field: 'password', message: 'The new password must differ from the old one.' },
};

/** A GoTrue error (as auth-js reports it) as an AppError. */
export function authError(e: unknown, ctx: MappingContext = {}): AppError {
  if (e instanceof AppError) return e;
  const err = (e && typeof e === 'object' ? e : {}) as AuthFailure;
  const code = err.code ?? '';
  const message = err.message ?? '';
  const status = typeof err.status === 'number' ? err.status : undefined;
  if (err.name === 'AuthRetryableFetchError') return httpStatusError(status ?? 0, e, ctx) ?? networkError(e);
  if (err.name === 'AuthSessionMissingError' || SESSION_CODES.has(code)) {
    return new AppError('auth/session-expired', sentence('auth/session-expired', null), { cause: e, retryable: false });
  }
  if (code === 'invalid_credentials' || /invalid login credentials/i.test(message)) {
    return new AppError('auth/invalid-credentials', sentence('auth/invalid-credentials', null), { cause: e, retryable: false });
  }
  if (code === 'email_not_confirmed' || /email not confirmed/i.test(message)) {
    return new AppError('auth/email-not-confirmed', sentence('auth/email-not-confirmed', null), { cause: e, retryable: false });
  }
  if (RATE_CODES.has(code) || status === 429) {
    return new AppError('backend/unreachable', 'Too many attempts. Wait a little, then try again.', {
      cause: e,
      retryable: true,
      ...(ctx.retryAfterMs === undefined ? {} : { retryAfterMs: ctx.retryAfterMs }),
    });
  }
  const field = FIELD_CODES[code] ?? (err.name === 'AuthWeakPasswordError' ? FIELD_CODES.weak_password : undefined);
  if (field) return new AppError('validation/invalid', field.message, { cause: e, details: { field: field.field } });
  if (status !== undefined) {
    const byStatus = httpStatusError(status, e, ctx);
    if (byStatus) return byStatus;
  }
  return new AppError('backend/unreachable', `Sign-in failed${message ? `: ${message}` : '.'}`, { cause: e, retryable: false });
}

interface FunctionsFailure {
  name?: string;
  message?: string;
  context?: unknown;
}

function isResponse(value: unknown): value is Response {
  return typeof Response !== 'undefined' && value instanceof Response;
}

/**
 * An Edge Function failure as an AppError: a non-2xx response's JSON `{ code, message }` decides when the
 * code is one of the product's; otherwise its status does. Reads the response body, hence async.
 */
export async function functionsError(e: unknown): Promise<AppError> {
  if (e instanceof AppError) return e;
  const err = (e && typeof e === 'object' ? e : {}) as FunctionsFailure;
  if (err.name === 'FunctionsFetchError') return networkError(err.context ?? e);
  if (!isResponse(err.context)) return new AppError('backend/unreachable', err.message || 'The function failed.', { cause: e, retryable: true });
  const response = err.context;
  const retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'));
  let body: unknown = null;
  try {
    body = JSON.parse(await response.text());
  } catch {
    body = null;
  }
  const fields = (body && typeof body === 'object' ? body : {}) as { code?: unknown; message?: unknown; details?: unknown };
  const bodyMessage = typeof fields.message === 'string' ? fields.message : undefined;
  if (isErrorCode(fields.code)) {
    const details = fields.details && typeof fields.details === 'object' ? (fields.details as Record<string, unknown>) : undefined;
    return new AppError(fields.code, sentence(fields.code, bodyMessage), {
      cause: e,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      ...(details ? { details } : {}),
    });
  }
  if (err.name === 'FunctionsRelayError') return new AppError('backend/unreachable', 'The server could not run the function. Try again.', { cause: e, retryable: true });
  const byStatus = httpStatusError(response.status, e, retryAfterMs === undefined ? {} : { retryAfterMs });
  if (byStatus) return byStatus;
  if (response.status === 403) return new AppError('album/forbidden', sentence('album/forbidden', bodyMessage), { cause: e });
  return new AppError('backend/unreachable', bodyMessage ?? `The function refused the request (HTTP ${response.status}).`, { cause: e, retryable: false });
}

/** The AbortError to throw for a fired signal (its own reason when that is one). */
export function abortErrorOf(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  return isAbortError(reason) ? reason : new DOMException('The operation was aborted.', 'AbortError');
}
