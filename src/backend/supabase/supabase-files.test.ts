// The files port of a Supabase deployment, on the documented wire: Storage's batch signing for display URLs,
// S3 requests signed with the user's session for uploads, and the storage-sign function for other providers.
import { describe, expect, it } from 'vitest';
import { createSupabaseBackend } from './create-supabase-backend';
import { projectRefOf } from './supabase-files';
import { ANON_KEY, PROJECT_URL, SilentWebSocket, json, tokenResponse, WireStub } from '../../testing/supabase-wire-stub';
import { PROFILE_ROW, USER } from '../../testing/supabase-test-session';
import type { StorageConfig } from '../../config';

async function signedInWith(storage: StorageConfig | undefined) {
  const stub = new WireStub();
  const tokenBody = tokenResponse(USER);
  stub.on('POST', '/auth/v1/token', tokenBody);
  stub.on('GET', '/rest/v1/profiles', [PROFILE_ROW]);
  const backend = createSupabaseBackend({
    url: PROJECT_URL,
    anonKey: ANON_KEY,
    fetch: stub.fetch,
    persistSession: false,
    webSocket: SilentWebSocket as never,
    ...(storage ? { storage } : {}),
  });
  await backend.auth.signInWithPassword(USER.email, 'correct horse');
  stub.clear();
  return { backend, stub, token: tokenBody.access_token as string };
}

const supabaseStorage: StorageConfig = { provider: 'supabase', region: 'eu-central-1', bucket: 'shoebox' };

describe('Supabase files port', () => {
  it('signs a page of thumbnails in one Storage call and leaves out what the user may not read', async () => {
    const { backend, stub, token } = await signedInWith(supabaseStorage);
    stub.on('POST', '/storage/v1/object/sign/shoebox', [
      { path: 'albums/a/1/thumb.webp', signedURL: '/object/sign/shoebox/albums/a/1/thumb.webp?token=t1', signedUrl: `${PROJECT_URL}/storage/v1/object/sign/shoebox/albums/a/1/thumb.webp?token=t1`, error: null },
      { path: 'albums/a/2/thumb.webp', signedURL: null, signedUrl: null, error: 'Either the object does not exist or you do not have access to it' },
    ]);
    const urls = await backend.files.urls(['albums/a/1/thumb.webp', 'albums/a/2/thumb.webp'], { expiresIn: 600 });
    expect([...urls.keys()]).toEqual(['albums/a/1/thumb.webp']);
    expect(urls.get('albums/a/1/thumb.webp')).toContain('token=t1');
    const req = stub.last('/storage/v1/object/sign/shoebox', 'POST');
    expect(req.body).toEqual({ expiresIn: 600, paths: ['albums/a/1/thumb.webp', 'albums/a/2/thumb.webp'] });
    expect(req.headers.get('authorization')).toBe(`Bearer ${token}`);
  });

  it('names a download in the signed URL encoded once, whatever characters the name has', async () => {
    const { backend, stub } = await signedInWith(supabaseStorage);
    stub.on('POST', '/storage/v1/object/sign/shoebox', [
      { path: 'albums/a/1/original', signedURL: '/object/sign/shoebox/albums/a/1/original?token=t1', error: null },
    ]);
    const name = 'Été à Lisboa #1 & 100%.jpg';
    const url = new URL((await backend.files.urls(['albums/a/1/original'], { downloadAs: name })).get('albums/a/1/original')!);
    expect(url.searchParams.get('download')).toBe(name);
    expect(url.searchParams.get('token')).toBe('t1');
    expect(url.search).toBe(`?token=t1&download=${encodeURIComponent(name)}`);
  });

  it("signs uploads for Storage's S3 endpoint with the project ref, the anon key and the user's token", async () => {
    const { backend, token } = await signedInWith(supabaseStorage);
    const seen: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL) => {
      seen.push(String(input));
      return new Response('', { status: 200, headers: { etag: '"abc"' } });
    }) as typeof fetch;
    try {
      await backend.files.upload({ key: 'albums/a/1/thumb.webp', blob: new Blob(['x']), contentType: 'image/webp' });
    } finally {
      globalThis.fetch = realFetch;
    }
    const url = new URL(seen[0]!);
    expect(`${url.origin}${url.pathname}`).toBe(`${PROJECT_URL}/storage/v1/s3/shoebox/albums/a/1/thumb.webp`);
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^abcdefghijklmnop\/\d{8}\/eu-central-1\/s3\/aws4_request$/);
    expect(url.searchParams.get('X-Amz-Security-Token')).toBe(token);
    expect(Number(url.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(3600);
  });

  it('asks the storage-sign function for other providers, one call for requests made together', async () => {
    const { backend, stub } = await signedInWith({ provider: 's3' });
    stub.on('POST', '/functions/v1/storage-sign', (req) => {
      const requests = (req.body as { requests: { key: string }[] }).requests;
      return json({
        expiresAt: new Date(Date.now() + 3600_000).toISOString(),
        results: requests.map((r) => (r.key.includes('/2/') ? { error: 'storage/denied' } : { method: 'GET', url: `https://bucket.example/${r.key}?X-Amz-Signature=s`, headers: {} })),
      });
    });
    const urls = await backend.files.urls(['albums/a/1/thumb.webp', 'albums/a/2/thumb.webp', 'albums/a/3/thumb.webp'], { downloadAs: 'a.jpg' });
    expect([...urls.keys()]).toEqual(['albums/a/1/thumb.webp', 'albums/a/3/thumb.webp']);
    const calls = stub.to('/functions/v1/storage-sign', 'POST');
    expect(calls).toHaveLength(1);
    expect((calls[0]!.body as { requests: unknown[] }).requests[0]).toEqual({ op: 'get', key: 'albums/a/1/thumb.webp', downloadAs: 'a.jpg' });
  });

  it('says file storage is not configured when config names none', async () => {
    const { backend } = await signedInWith(undefined);
    await expect(backend.files.urls(['albums/a/1/thumb.webp'])).rejects.toMatchObject({ code: 'storage/denied', message: expect.stringContaining('storage') });
  });

  it('takes the project ref from the project address, or from config when self-hosted', () => {
    expect(projectRefOf('https://abcdefghijklmnop.supabase.co')).toBe('abcdefghijklmnop');
    expect(projectRefOf('https://photos.example.org', 'stub')).toBe('stub');
    expect(() => projectRefOf('https://photos.example.org')).toThrow(/projectRef/);
  });
});
