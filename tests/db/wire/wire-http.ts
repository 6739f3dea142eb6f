/** The HTTP pieces both emulated services share: the parsed request and JSON responses. */

export interface WireRequest {
  method: string;
  url: URL;
  headers: Headers;
  /** The parsed JSON body; `undefined` when there is none. */
  body: unknown;
  /** The raw body text, for services that must tell "no body" from "invalid JSON". */
  text: string;
}

export async function readRequest(request: Request): Promise<WireRequest> {
  const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { method: request.method, url: new URL(request.url), headers: request.headers, body, text };
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers } });
}

export function emptyResponse(status: number, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers });
}

/** The token of an `Authorization: Bearer …` header, if there is one. */
export function bearerToken(headers: Headers): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(headers.get('Authorization') ?? '');
  return m ? m[1]! : null;
}
