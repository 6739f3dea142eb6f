/**
 * Every Supabase and HTTP failure becomes an AppError here, in one place: PostgREST error bodies
 * (`{code, message, details, hint}`), GoTrue errors, Edge Function responses and network failures.
 * AbortErrors are never translated: a cancellation is not an error the user sees.
 *
 * [Note: Supabase error convention]
 * The SQL functions raise `errcode 'P0001'` with the product's error code as the message and an explanation
 * as the detail; PostgREST returns that as HTTP 400 `{"code":"P0001","message":"album/not-found",
 * "details":"…"}`. A hint that is a JSON object (`{"field":"coverItemId"}`) becomes the AppError's details.
 * Postgres' own refusals (check, not-null, length, RLS) map to `validation/invalid` or `album/forbidden`;
 * "no rows" (PGRST116) maps to the not-found code of whatever the caller was reading.
 * This module maps to codes only: an AppError's message here is for the log (it may hold the server's own
 * words, such as "Failing row contains …"); what people read comes from `lib/error-messages.ts`.
 */
import { AppError, ERROR_CODES, type ErrorCode } from '../../lib/app-error';
import type { FieldIssue } from '../../lib/error-messages';

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

/** A line for the log: what the server said, with its code. */
function said(what: string, code: string | null | undefined, message: string | null | undefined, details?: string | null): string {
  return [what, code, message, details].filter((part) => part && String(part).trim()).join(': ');
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
  if (isOffline()) return new AppError('offline', 'The browser is offline.', { cause });
  return new AppError('backend/unreachable', 'The request did not reach the server.', { cause, retryable: true });
}

/** Errors the HTTP status alone decides, whatever the body says; null when the body must decide. */
export function httpStatusError(status: number, cause: unknown, ctx: MappingContext = {}): AppError | null {
  if (status === 0) return networkError(cause);
  if (status === 401) return new AppError('auth/session-expired', 'HTTP 401', { cause, retryable: false });
  if (status === 429) {
    return new AppError('backend/unreachable', 'HTTP 429', {
      cause,
      retryable: true,
      ...(ctx.retryAfterMs === undefined ? {} : { retryAfterMs: ctx.retryAfterMs }),
    });
  }
  if (status >= 500) {
    return new AppError('backend/unreachable', `HTTP ${status}`, {
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
  const logged = said(`PostgREST ${status}`, code, message, error.details);
  if (code === 'P0001' && isErrorCode(message)) {
    const hint = hintDetails(error.hint);
    // A field named by the function without a rule: the catalogue's "is not valid" for that field.
    const details = hint && typeof hint.field === 'string' && hint.rule === undefined ? { ...hint, rule: 'invalid' } : hint;
    return new AppError(message, logged, { cause, ...(details ? { details } : {}) });
  }
  if (JWT_CODES.has(code) || /jwt expired/i.test(message)) {
    return new AppError('auth/session-expired', logged, { cause, retryable: false });
  }
  const byStatus = httpStatusError(status, cause, ctx);
  if (byStatus) return byStatus;
  switch (code) {
    case 'PGRST116':
      return new AppError(ctx.notFound ?? 'validation/invalid', logged, { cause });
    case '22P02':
      // Invalid text for a uuid: an id that cannot name anything names nothing.
      if (ctx.notFound) return new AppError(ctx.notFound, logged, { cause });
      return new AppError('validation/invalid', logged, { cause });
    case '23514':
    case '23502':
    case '22001':
    case '23505':
    case '23503':
    case '22023':
    case '22007':
    case '22008':
      return new AppError('validation/invalid', logged, { cause });
    case '42501':
      return new AppError('album/forbidden', logged, { cause });
    case '57014':
      return new AppError('backend/unreachable', logged, { cause, retryable: true });
  }
  if (status === 403) return new AppError('album/forbidden', logged, { cause });
  if (status === 404 && ctx.notFound) return new AppError(ctx.notFound, logged, { cause });
  return new AppError('backend/unreachable', logged, { cause, retryable: false });
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
/** GoTrue's field refusals, as the field and rule the catalogue words. */
const FIELD_CODES: Record<string, FieldIssue> = {
  weak_password: { field: 'password', rule: 'weak' },
  email_address_invalid: { field: 'email', rule: 'invalid' },
  validation_failed: { field: 'email', rule: 'invalid' },
  user_already_exists: { field: 'email', rule: 'taken' },
  email_exists: { field: 'email', rule: 'taken' },
  same_password: { field: 'password', rule: 'same' },
};

/** A GoTrue error (as auth-js reports it) as an AppError. */
export function authError(e: unknown, ctx: MappingContext = {}): AppError {
  if (e instanceof AppError) return e;
  const err = (e && typeof e === 'object' ? e : {}) as AuthFailure;
  const code = err.code ?? '';
  const message = err.message ?? '';
  const status = typeof err.status === 'number' ? err.status : undefined;
  if (err.name === 'AuthRetryableFetchError') return httpStatusError(status ?? 0, e, ctx) ?? networkError(e);
  const logged = said(`GoTrue${status === undefined ? '' : ` ${status}`}`, code, message);
  if (err.name === 'AuthSessionMissingError' || SESSION_CODES.has(code)) {
    return new AppError('auth/session-expired', logged, { cause: e, retryable: false });
  }
  if (code === 'invalid_credentials' || /invalid login credentials/i.test(message)) {
    return new AppError('auth/invalid-credentials', logged, { cause: e, retryable: false });
  }
  if (code === 'email_not_confirmed' || /email not confirmed/i.test(message)) {
    return new AppError('auth/email-not-confirmed', logged, { cause: e, retryable: false });
  }
  if (RATE_CODES.has(code) || status === 429) {
    return new AppError('backend/unreachable', logged, {
      cause: e,
      retryable: true,
      ...(ctx.retryAfterMs === undefined ? {} : { retryAfterMs: ctx.retryAfterMs }),
    });
  }
  const field = FIELD_CODES[code] ?? (err.name === 'AuthWeakPasswordError' ? FIELD_CODES.weak_password : undefined);
  if (field) return new AppError('validation/invalid', logged, { cause: e, details: { ...field } });
  if (status !== undefined) {
    const byStatus = httpStatusError(status, e, ctx);
    if (byStatus) return byStatus;
  }
  return new AppError('backend/unreachable', logged, { cause: e, retryable: false });
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
  if (!isResponse(err.context)) return new AppError('backend/unreachable', said('Edge Function', err.name, err.message), { cause: e, retryable: true });
  const response = err.context;
  const retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'));
  let body: unknown = null;
  try {
    body = JSON.parse(await response.text());
  } catch {
    body = null;
  }
  const fields = (body && typeof body === 'object' ? body : {}) as { code?: unknown; message?: unknown; details?: unknown; reason?: unknown; retryAfterSeconds?: unknown };
  const bodyMessage = typeof fields.message === 'string' ? fields.message : undefined;
  if (isErrorCode(fields.code)) {
    const given = fields.details && typeof fields.details === 'object' ? (fields.details as Record<string, unknown>) : undefined;
    // `reason` says why a link stopped (`view-limit`); a cross-origin page cannot read Retry-After, so the body says it too.
    const details = typeof fields.reason === 'string' ? { ...given, reason: fields.reason } : given;
    const wait = retryAfterMs ?? (typeof fields.retryAfterSeconds === 'number' && fields.retryAfterSeconds >= 0 ? fields.retryAfterSeconds * 1000 : undefined);
    return new AppError(fields.code, said(`Edge Function ${response.status}`, fields.code, bodyMessage), {
      cause: e,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
      ...(details ? { details } : {}),
    });
  }
  const logged = said(`Edge Function ${response.status}`, err.name, bodyMessage);
  if (err.name === 'FunctionsRelayError') return new AppError('backend/unreachable', logged, { cause: e, retryable: true });
  const byStatus = httpStatusError(response.status, e, retryAfterMs === undefined ? {} : { retryAfterMs });
  if (byStatus) return byStatus;
  if (response.status === 403) return new AppError('album/forbidden', logged, { cause: e });
  return new AppError('backend/unreachable', logged, { cause: e, retryable: false });
}

