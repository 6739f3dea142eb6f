/** JSON responses, CORS and the `{ code, message }` error shape shared by the edge functions. */

// supabase-js's functions.invoke sends these request headers; the browser asks for them in its preflight.
export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, apikey, content-type, x-client-info',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Max-Age': '86400',
};

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

/**
 * A whole-call error: an error code of the product's catalogue and a sentence for the log; `details` names
 * what the app can say more precisely (for `validation/invalid`, the field and its rule).
 */
export function failure(status: number, code: string, message: string, headers: Record<string, string> = {}, details?: Record<string, unknown>): Response {
  return json(status, details ? { code, message, details } : { code, message }, headers);
}

export function preflight(): Response {
  return new Response(null, { status: 204, headers: corsHeaders });
}

export function methodNotAllowed(): Response {
  return failure(405, 'validation/invalid', 'Use POST.', { Allow: 'POST, OPTIONS' });
}

/** What a function answers when its settings are missing: it cannot reach its backend. */
export function misconfigured(request: Request, problem: unknown): Response {
  if (request.method === 'OPTIONS') return preflight();
  console.error('function is not configured:', problem instanceof Error ? problem.message : problem);
  return failure(500, 'backend/unreachable', 'The storage service is not configured.');
}

/** The token of `Authorization: Bearer <token>`, or null. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** The refusals of the album SQL functions (`private.fail`), and the status each is answered with. */
export const ALBUM_REFUSALS: Record<string, number> = {
  'album/not-found': 404,
  'album/forbidden': 403,
  'validation/invalid': 400,
};

/**
 * A refusal raised by our SQL functions — SQLSTATE P0001 with the product's error code as its message, the
 * sentence as its detail and, where a function gives them, details as a JSON object in its hint — as the
 * function's answer; null for a code not in `statusOf` or any other error (the caller logs it).
 */
export function sqlRefusal(e: unknown, statusOf: Record<string, number>): Response | null {
  const pg = e as { code?: unknown; message?: unknown; detail?: unknown; hint?: unknown } | null;
  if (pg?.code !== 'P0001' || typeof pg.message !== 'string' || !Object.hasOwn(statusOf, pg.message)) return null;
  const details = typeof pg.hint === 'string' && pg.hint.startsWith('{') ? JSON.parse(pg.hint) as Record<string, unknown> : undefined;
  return failure(statusOf[pg.message]!, pg.message, typeof pg.detail === 'string' ? pg.detail : '', {}, details);
}

/** The request's body as a JSON object of at most `maxBytes` characters, or null (unreadable, too long, not an object). */
export async function readJsonObject(request: Request, maxBytes: number): Promise<Record<string, unknown> | null> {
  try {
    const text = await request.text();
    if (text.length > maxBytes) return null;
    const body: unknown = JSON.parse(text);
    return body && typeof body === 'object' && !Array.isArray(body) ? body as Record<string, unknown> : null;
  } catch {
    return null;
  }
}
