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
