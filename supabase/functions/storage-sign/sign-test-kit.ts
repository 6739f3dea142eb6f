/**
 * What the storage-sign tests share: one album with a member of each role and a stranger, calls to the
 * handler as a signed-in user, and sending the signed requests to the real gateway as a browser would.
 */
import assert from 'node:assert/strict';
import { accessToken, type Album, asUser, createAlbum, createUser, markStored, ownerSql, testEnv } from '../_shared/test-world.ts';
import { handle, signDepsFromEnv } from './handler.ts';
import type { SignedRequest } from './presign.ts';

export const sql = ownerSql();
export const deps = signDepsFromEnv(testEnv());
let world: Promise<{ album: Album; stranger: string; tokens: Record<string, string> }> | undefined;

/** One album with a member of each role and a stranger, made once for the file. */
export function setup() {
  world ??= (async () => {
    const album = await createAlbum(sql);
    const stranger = await createUser(sql, 'Stan');
    const tokens: Record<string, string> = {};
    for (const [name, id] of Object.entries({ owner: album.owner, editor: album.editor, contributor: album.contributor, viewer: album.viewer, stranger })) {
      tokens[name] = await accessToken({ sub: id });
    }
    return { album, stranger, tokens };
  })();
  return world;
}

/** The uploader marks the item ready, as the app does once its objects are uploaded. */
export async function finalize(album: Album, itemId: string, uploader = album.contributor): Promise<void> {
  await markStored(sql, itemId);
  await asUser(sql, uploader, (tx) => tx`select public.finalize_item(${album.id}, ${itemId}, ${tx.json({ sha256: 'a'.repeat(64) })})`);
}

export type Answer = { status: number; body: Record<string, unknown> & { results?: (SignedRequest | { error: string })[]; expiresAt?: string } };

export async function call(token: string | null, body: unknown, init: RequestInit = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const res = await handle(new Request('http://localhost/functions/v1/storage-sign', {
    method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body), ...init,
  }), deps);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

/** Signs `requests` as `token` and returns the results, asserting the call itself succeeded. */
export async function sign(token: string, ...requests: unknown[]): Promise<(SignedRequest | { error: string })[]> {
  const { status, body } = await call(token, { requests });
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.results?.length, requests.length);
  return body.results!;
}

export function signed(result: SignedRequest | { error: string } | undefined): SignedRequest {
  assert.ok(result && 'url' in result, `expected a signed request, got ${JSON.stringify(result)}`);
  return result;
}

/** Sends a signed request to the gateway exactly as the browser would. */
export function send(req: SignedRequest, body?: BodyInit): Promise<Response> {
  return fetch(req.url, { method: req.method, headers: req.headers, ...(body === undefined ? {} : { body }) });
}

export async function expectStatus(res: Response, status: number): Promise<string> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return text;
}
