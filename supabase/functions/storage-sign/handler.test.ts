/**
 * storage-sign against a real database and a real S3 gateway: members get URLs that work, everyone else
 * gets nothing usable.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ConfigError } from '../_shared/config-error.ts';
import { misconfigured } from '../_shared/http.ts';
import { accessToken, asUser, key, randomBytes, reserveItem, test, testEnv, unsignedToken } from '../_shared/test-world.ts';
import { handle, signDepsFromEnv } from './handler.ts';
import type { SignedRequest } from './presign.ts';
import { call, deps, expectStatus, finalize, send, setup, sign, signed, sql } from './sign-test-kit.ts';

test('a contributor uploads an original in parts with the returned URLs and headers, and reads it back byte-exact', async () => {
  const { album, tokens } = await setup();
  const itemId = await reserveItem(sql, album.contributor, album.id);
  const k = key(album.id, itemId);

  const [create] = await sign(tokens.contributor!, { op: 'create', key: k, contentType: 'image/jpeg' });
  const created = await expectStatus(await send(signed(create)), 200);
  const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(created)?.[1];
  assert.ok(uploadId, created);

  // Two parts: S3 needs 5 MiB for every part but the last.
  const bytes = randomBytes(5 * 1024 * 1024 + 12345);
  const parts = [bytes.subarray(0, 5 * 1024 * 1024), bytes.subarray(5 * 1024 * 1024)];
  const partUrls = await sign(tokens.contributor!, ...parts.map((_, i) => ({ op: 'part', key: k, uploadId, partNumber: i + 1 })));
  const etags: string[] = [];
  for (const [i, part] of parts.entries()) {
    const res = await send(signed(partUrls[i]), part);
    await expectStatus(res, 200);
    etags.push(res.headers.get('etag')!);
  }

  const [list] = await sign(tokens.contributor!, { op: 'list-parts', key: k, uploadId });
  const listed = await expectStatus(await send(signed(list)), 200);
  assert.deepEqual([...listed.matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1])), [1, 2]);
  const [afterFirst] = await sign(tokens.contributor!, { op: 'list-parts', key: k, uploadId, partNumberMarker: 1 });
  const rest = await expectStatus(await send(signed(afterFirst)), 200);
  assert.deepEqual([...rest.matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1])), [2]);
  // The unfinished uploads under this key: this one (what a resumed run aborts when it lost the id).
  const [uploads] = await sign(tokens.contributor!, { op: 'list-uploads', key: k });
  const listedUploads = await expectStatus(await send(signed(uploads)), 200);
  assert.deepEqual([...listedUploads.matchAll(/<UploadId>([^<]+)<\/UploadId>/g)].map((m) => m[1]), [uploadId]);

  const [complete] = await sign(tokens.contributor!, { op: 'complete', key: k, uploadId });
  const xml = `<CompleteMultipartUpload>${etags.map((e, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${e}</ETag></Part>`).join('')}</CompleteMultipartUpload>`;
  const completed = await expectStatus(await send(signed(complete), xml), 200);
  assert.doesNotMatch(completed, /<Error>/);

  // Any member reads it: a viewer here.
  const [get, head] = await sign(tokens.viewer!, { op: 'get', key: k }, { op: 'head', key: k });
  const got = await send(signed(get));
  assert.equal(got.status, 200);
  assert.deepEqual(new Uint8Array(await got.arrayBuffer()), bytes);
  const headed = await send(signed(head));
  await expectStatus(headed, 200);
  assert.equal(headed.headers.get('content-length'), String(bytes.length));
  assert.equal(headed.headers.get('content-type'), 'image/jpeg');
});

test('the returned headers are exactly the signed ones, and a URL works for its own key only', async () => {
  const { album, tokens } = await setup();
  const itemId = await reserveItem(sql, album.contributor, album.id);
  const k = key(album.id, itemId, 'thumb.webp');
  const [put] = await sign(tokens.contributor!, { op: 'put', key: k, contentType: 'image/webp', contentDisposition: 'inline' });
  const req = signed(put);
  assert.equal(req.method, 'PUT');
  assert.deepEqual(req.headers, { 'content-type': 'image/webp', 'content-disposition': 'inline' });
  const signedHeaders = new URL(req.url).searchParams.get('X-Amz-SignedHeaders')!.split(';').sort();
  assert.deepEqual(signedHeaders, ['content-disposition', 'content-type', 'host']);
  assert.equal(new URL(req.url).searchParams.get('X-Amz-Expires'), '3600');

  // Another key with the same signature, or a different type than signed: refused by the gateway.
  const other = { ...req, url: req.url.replace(itemId, crypto.randomUUID()) };
  await expectStatus(await send(other, new Uint8Array([1])), 403);
  await expectStatus(await send({ ...req, headers: { ...req.headers, 'content-type': 'text/html' } }, new Uint8Array([1])), 403);

  const body = randomBytes(2048);
  await expectStatus(await send(req, body), 200);
  const [get] = await sign(tokens.owner!, { op: 'get', key: k });
  const got = await send(signed(get));
  assert.deepEqual(new Uint8Array(await got.arrayBuffer()), body);
});

test('a body with a Content-MD5 is stored only when its bytes arrived as hashed', async () => {
  const { album, tokens } = await setup();
  const itemId = await reserveItem(sql, album.contributor, album.id);
  const k = key(album.id, itemId);
  const body = randomBytes(4096);
  const digest = createHash('md5').update(body).digest('base64');
  const [put] = await sign(tokens.contributor!, { op: 'put', key: k, contentType: 'image/jpeg', contentMd5: digest });
  assert.equal(signed(put).headers['content-md5'], digest);
  const damaged = body.slice();
  damaged[100] = damaged[100]! ^ 1;
  const refused = await send(signed(put), damaged);
  assert.equal(refused.status, 400);
  assert.match(await refused.text(), /BadDigest/);
  const [head] = await sign(tokens.contributor!, { op: 'head', key: k });
  await expectStatus(await send(signed(head)), 404);
  await expectStatus(await send(signed(put), body), 200);
  await expectStatus(await send(signed(head)), 200);
});

test('downloadAs makes the GET an attachment with the name, RFC 5987 encoded', async () => {
  const { album, tokens } = await setup();
  const itemId = await reserveItem(sql, album.contributor, album.id);
  const k = key(album.id, itemId);
  const [put] = await sign(tokens.contributor!, { op: 'put', key: k, contentType: 'image/jpeg' });
  await expectStatus(await send(signed(put), randomBytes(100)), 200);
  await finalize(album, itemId);

  const [plain, named] = await sign(tokens.viewer!, { op: 'get', key: k }, { op: 'get', key: k, downloadAs: "Été à Paris (l'an 2026)*.jpg" });
  const inline = await send(signed(plain));
  await inline.arrayBuffer();
  assert.equal(inline.headers.get('content-disposition'), 'inline');
  const download = await send(signed(named));
  await expectStatus(download, 200);
  assert.equal(download.headers.get('content-disposition'), "attachment; filename*=UTF-8''%C3%89t%C3%A9%20%C3%A0%20Paris%20%28l%27an%202026%29%2A.jpg");
  assert.equal(download.headers.get('content-type'), 'image/jpeg');
});

test('SVG and HTML originals are stored as octet-stream attachments and always served as attachments', async () => {
  const { album, tokens } = await setup();
  const svgId = await reserveItem(sql, album.contributor, album.id, { filename: 'drawing.svg', mime: 'image/svg+xml', kind: 'file' });
  const htmlId = await reserveItem(sql, album.contributor, album.id, { filename: 'page.html', mime: 'text/html', kind: 'file' });

  const [putSvg, createHtml] = await sign(tokens.contributor!,
    { op: 'put', key: key(album.id, svgId), contentType: 'application/octet-stream', contentDisposition: 'inline' },
    { op: 'create', key: key(album.id, htmlId), contentType: 'application/octet-stream' });
  assert.deepEqual(signed(putSvg).headers, { 'content-type': 'application/octet-stream', 'content-disposition': "attachment; filename*=UTF-8''drawing.svg" });
  assert.deepEqual(signed(createHtml).headers, { 'content-type': 'application/octet-stream', 'content-disposition': "attachment; filename*=UTF-8''page.html" });

  const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  await expectStatus(await send(signed(putSvg), svg), 200);
  // A lie about the type does not help: the row says SVG.
  const [lying] = await sign(tokens.contributor!, { op: 'put', key: key(album.id, svgId), contentType: 'image/png' });
  assert.equal(signed(lying).headers['content-type'], 'application/octet-stream');

  // Until the item is finished other members cannot see its row, and anything unknown is an attachment.
  const [early] = await sign(tokens.viewer!, { op: 'get', key: key(album.id, svgId) });
  const unknown = await send(signed(early));
  await unknown.arrayBuffer();
  assert.equal(unknown.headers.get('content-disposition'), 'attachment');

  await finalize(album, svgId);
  const [get, named] = await sign(tokens.viewer!, { op: 'get', key: key(album.id, svgId) }, { op: 'get', key: key(album.id, svgId), downloadAs: 'x.svg' });
  const res = await send(signed(get));
  assert.deepEqual(new Uint8Array(await res.arrayBuffer()), svg);
  assert.equal(res.headers.get('content-disposition'), "attachment; filename*=UTF-8''drawing.svg");
  assert.equal(res.headers.get('content-type'), 'application/octet-stream');
  const renamed = await send(signed(named));
  await renamed.arrayBuffer();
  assert.equal(renamed.headers.get('content-disposition'), "attachment; filename*=UTF-8''x.svg");
});

test('a viewer may read but not write or delete; a stranger may do nothing, exactly as with an album that does not exist', async () => {
  const { album, tokens } = await setup();
  const itemId = await reserveItem(sql, album.contributor, album.id);
  const k = key(album.id, itemId);
  const every = (kk: string) => [
    { op: 'put', key: kk, contentType: 'image/jpeg' },
    { op: 'create', key: kk, contentType: 'image/jpeg' },
    { op: 'part', key: kk, uploadId: 'u', partNumber: 1 },
    { op: 'complete', key: kk, uploadId: 'u' },
    { op: 'abort', key: kk, uploadId: 'u' },
    { op: 'list-parts', key: kk, uploadId: 'u' },
    { op: 'list-uploads', key: kk },
    { op: 'head', key: kk },
    { op: 'get', key: kk },
    { op: 'delete', key: kk },
  ];
  const errors = (results: (SignedRequest | { error: string })[]) => results.map((r) => ('error' in r ? r.error : r.method));

  assert.deepEqual(errors(await sign(tokens.viewer!, ...every(k))),
    ['storage/denied', 'storage/denied', 'storage/denied', 'storage/denied', 'storage/denied', 'storage/denied', 'storage/denied', 'HEAD', 'GET', 'storage/denied']);
  const denied = Array(10).fill('storage/denied');
  assert.deepEqual(errors(await sign(tokens.stranger!, ...every(k))), denied);
  assert.deepEqual(errors(await sign(tokens.stranger!, ...every(key(crypto.randomUUID(), crypto.randomUUID())))), denied);
  // The uploader may write until the item is finished; the owner may not write into someone else's upload.
  assert.deepEqual(errors(await sign(tokens.contributor!, ...every(k))), ['PUT', 'POST', 'PUT', 'POST', 'DELETE', 'GET', 'GET', 'HEAD', 'GET', 'DELETE']);
  assert.deepEqual(errors(await sign(tokens.owner!, ...every(k))), [...denied.slice(0, 7), 'HEAD', 'GET', 'storage/denied']);
  await finalize(album, itemId);
  // Once in the album, the bytes are deleted by purge alone (after the trash), never by a member.
  assert.deepEqual(errors(await sign(tokens.contributor!, ...every(k))), [...denied.slice(0, 7), 'HEAD', 'GET', 'storage/denied']);
  assert.deepEqual(errors(await sign(tokens.owner!, ...every(k))), [...denied.slice(0, 7), 'HEAD', 'GET', 'storage/denied']);
});

test('a ready item\'s sidecar: written by the owner and editors for any item, by a contributor for their own, by nobody else', async () => {
  const { album, tokens } = await setup();
  const cora = await reserveItem(sql, album.contributor, album.id);
  const eddie = await reserveItem(sql, album.editor, album.id);
  await finalize(album, cora);
  await finalize(album, eddie, album.editor);
  const xmp = (id: string) => key(album.id, id, 'original.xmp');
  const put = (id: string, contentLength = 100) => ({ op: 'put', key: xmp(id), contentType: 'application/octet-stream', contentLength });
  const outcome = (r: SignedRequest | { error: string }) => ('error' in r ? r.error : r.method);

  assert.deepEqual((await sign(tokens.owner!, put(cora), put(eddie))).map(outcome), ['PUT', 'PUT']);
  assert.deepEqual((await sign(tokens.editor!, put(cora), put(eddie))).map(outcome), ['PUT', 'PUT']);
  assert.deepEqual((await sign(tokens.contributor!, put(cora), put(eddie))).map(outcome), ['PUT', 'storage/denied']);
  assert.deepEqual((await sign(tokens.viewer!, put(cora), put(eddie))).map(outcome), ['storage/denied', 'storage/denied']);
  assert.deepEqual((await sign(tokens.stranger!, put(cora), put(eddie))).map(outcome), ['storage/denied', 'storage/denied']);

  // The item's other objects stay as they were stored, for everyone, whatever they ask.
  const others = ['original', 'preview.webp', 'thumb.webp', 'poster.webp'].flatMap((f) => [
    { op: 'put', key: key(album.id, cora, f), contentType: f === 'original' ? 'image/jpeg' : 'image/webp' },
    { op: 'create', key: key(album.id, cora, f), contentType: f === 'original' ? 'image/jpeg' : 'image/webp' },
  ]);
  for (const who of ['owner', 'editor', 'contributor'] as const) {
    assert.deepEqual(await sign(tokens[who]!, ...others), Array(others.length).fill({ error: 'storage/denied' }), who);
  }
  // Reading it is any member's; deleting it, nobody's (the purge deletes it with the item).
  assert.deepEqual((await sign(tokens.viewer!, { op: 'get', key: xmp(cora) }, { op: 'delete', key: xmp(cora) })).map(outcome), ['GET', 'storage/denied']);
  assert.deepEqual((await sign(tokens.owner!, { op: 'delete', key: xmp(cora) })).map(outcome), ['storage/denied']);
  // The `stored` call is for originals only.
  const stored = await call(tokens.contributor!, { stored: [xmp(cora)] });
  assert.deepEqual(stored.body.stored, [{ key: xmp(cora), error: 'validation/invalid' }]);

  // Once in the trash, nobody writes it.
  await asUser(sql, album.owner, (tx) => tx`select public.trash_items(${album.id}, ${tx.array([cora])}::uuid[])`);
  for (const who of ['owner', 'editor', 'contributor'] as const) {
    assert.deepEqual(await sign(tokens[who]!, put(cora)), [{ error: 'storage/denied' }], who);
  }
});

test('an editor writes a ready item\'s sidecar as bytes of the signed length, over and over; the viewer reads it back as an attachment', async () => {
  const { album, tokens } = await setup();
  const itemId = await reserveItem(sql, album.contributor, album.id);
  await finalize(album, itemId);
  const k = key(album.id, itemId, 'original.xmp');
  const write = async (text: string) => {
    const body = new TextEncoder().encode(text);
    const [put] = await sign(tokens.editor!, { op: 'put', key: k, contentType: 'application/octet-stream', contentLength: body.byteLength, contentDisposition: 'inline' });
    const req = signed(put);
    // Stored as bytes to download whatever the request said; the length is part of the signature.
    assert.deepEqual(req.headers, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment' });
    assert.ok(new URL(req.url).searchParams.get('X-Amz-SignedHeaders')!.split(';').includes('content-length'));
    await expectStatus(await send(req, body), 200);
    return req;
  };
  await write('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>');
  const second = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description xmp:Rating="4"/></rdf:RDF></x:xmpmeta>';
  const req = await write(second);
  // A body of another length than signed is refused by the gateway.
  assert.equal((await send(req, new Uint8Array(second.length + 1000))).status, 403);

  const [get] = await sign(tokens.viewer!, { op: 'get', key: k });
  const res = await send(signed(get));
  assert.equal(await expectStatus(res, 200), second);
  assert.equal(res.headers.get('content-type'), 'application/octet-stream');
  assert.equal(res.headers.get('content-disposition'), 'attachment');
});

test('a sidecar is one PUT of application/octet-stream, at most 2 MiB; the uploader writes it while uploading', async () => {
  const { album, tokens } = await setup();
  const ready = await reserveItem(sql, album.contributor, album.id);
  await finalize(album, ready);
  const uploading = await reserveItem(sql, album.contributor, album.id);
  const k = key(album.id, ready, 'original.xmp');
  const MiB = 1024 * 1024;
  const results = await sign(tokens.editor!,
    ...['text/xml', 'application/xml', 'application/rdf+xml', 'application/xhtml+xml', 'text/html', 'image/svg+xml', 'text/plain', 'application/octet-stream; x=1, text/html']
      .map((contentType) => ({ op: 'put', key: k, contentType, contentLength: 100 })),
    { op: 'put', key: k, contentType: 'application/octet-stream', contentLength: 2 * MiB + 1 },
    { op: 'put', key: k, contentType: 'application/octet-stream', contentLength: 5 * 1024 * MiB },
    { op: 'put', key: k, contentType: 'application/octet-stream' },
    { op: 'create', key: k, contentType: 'application/octet-stream' },
    { op: 'part', key: k, uploadId: 'u', partNumber: 1 },
    { op: 'put', key: k, contentType: 'application/octet-stream', contentLength: 2 * MiB },
  );
  assert.deepEqual(results.slice(0, -1), [
    ...Array(8).fill({ error: 'upload/unsupported' }),
    { error: 'upload/too-large' },
    { error: 'upload/too-large' },
    { error: 'validation/invalid' },
    { error: 'storage/denied' },
    { error: 'storage/denied' },
  ]);
  assert.equal(signed(results.at(-1)).headers['content-type'], 'application/octet-stream');

  // While uploading: the uploader, not the editor (whose right is to a ready item's details).
  const during = { op: 'put', key: key(album.id, uploading, 'original.xmp'), contentType: 'application/octet-stream', contentLength: 10 };
  await expectStatus(await send(signed((await sign(tokens.contributor!, during))[0]), new Uint8Array(10)), 200);
  assert.deepEqual(await sign(tokens.editor!, during), [{ error: 'storage/denied' }]);
  assert.deepEqual(await sign(tokens.contributor!, { ...during, contentType: 'text/xml' }), [{ error: 'upload/unsupported' }]);
});

test('delete URLs: only for the uploader, only while the upload is unfinished', async () => {
  const { album, tokens } = await setup();
  const own = await reserveItem(sql, album.contributor, album.id);
  const editors = await reserveItem(sql, album.editor, album.id);
  for (const [who, id] of [['contributor', own], ['editor', editors]] as const) {
    const [put] = await sign(tokens[who]!, { op: 'put', key: key(album.id, id), contentType: 'image/jpeg' });
    await expectStatus(await send(signed(put), randomBytes(10)), 200);
  }
  const [mine, theirs] = await sign(tokens.contributor!, { op: 'delete', key: key(album.id, own) }, { op: 'delete', key: key(album.id, editors) });
  assert.deepEqual(theirs, { error: 'storage/denied' });
  await expectStatus(await send(signed(mine)), 204);
  assert.deepEqual(await sign(tokens.owner!, { op: 'delete', key: key(album.id, editors) }), [{ error: 'storage/denied' }]);
  const heads = await sign(tokens.owner!, { op: 'head', key: key(album.id, own) }, { op: 'head', key: key(album.id, editors) });
  await expectStatus(await send(signed(heads[0]!)), 404);
  await expectStatus(await send(signed(heads[1]!)), 200);
});

test('missing, expired, forged, unsigned and anonymous tokens get 401 auth/session-expired and no URL', async () => {
  const { album } = await setup();
  const body = { requests: [{ op: 'get', key: key(album.id, crypto.randomUUID()) }] };
  const cases: [string, string | null][] = [
    ['missing', null],
    ['garbage', 'not-a-token'],
    ['expired', await accessToken({ sub: album.owner }, { expiresInSeconds: -10 })],
    ['wrong secret', await accessToken({ sub: album.owner }, { secret: 'someone-elses-secret-of-enough-length' })],
    ['alg none', unsignedToken({ sub: album.owner, role: 'authenticated' })],
    ['anon key', await accessToken({ role: 'anon' })],
    ['service role', await accessToken({ role: 'service_role' })],
  ];
  for (const [name, token] of cases) {
    const { status, body: answer } = await call(token, body);
    assert.equal(status, 401, name);
    assert.equal(answer.code, 'auth/session-expired', name);
    assert.equal(answer.results, undefined, name);
  }
  const noExp = await call(null, body, { headers: { authorization: `Bearer ${unsignedToken({ sub: album.owner })}` } });
  assert.equal(noExp.status, 401);
});

test('malformed requests are refused one by one; malformed calls as a whole; CORS is answered', async () => {
  const { album, tokens } = await setup();
  const itemId = await reserveItem(sql, album.contributor, album.id);
  const k = key(album.id, itemId);
  const results = await sign(tokens.contributor!,
    { op: 'put', key: k, contentType: 'image/jpeg' },
    { op: 'put', key: `albums/${album.id}/${itemId}/evil.html`, contentType: 'image/jpeg' },
    { op: 'put', key: `albums/${album.id.toUpperCase()}/${itemId}/original`, contentType: 'image/jpeg' },
    { op: 'put', key: k },
    { op: 'put', key: k, contentType: 'image/jpeg\r\nx-amz-acl: public-read' },
    { op: 'part', key: k, uploadId: 'u', partNumber: 0 },
    { op: 'part', key: k, uploadId: 'u', partNumber: 10001 },
    { op: 'part', key: k, partNumber: 1 },
    { op: 'part', key: k, uploadId: 'u', partNumber: 1, contentMd5: 'not-a-digest' },
    { op: 'put', key: k, contentType: 'image/jpeg', contentMd5: 'd41d8cd98f00b204e9800998ecf8427e' },
    { op: 'create', key: k, contentType: 'image/jpeg', contentMd5: '1B2M2Y8AsgTpgAmY7PhCfg==' },
    { op: 'get', key: k, downloadAs: '' },
    { op: 'copy', key: k },
    'get',
    null,
  );
  assert.ok('url' in results[0]!);
  assert.deepEqual(results.slice(1), Array(14).fill({ error: 'validation/invalid' }));

  for (const bad of ['{', '[]', '{}', JSON.stringify({ requests: [] }), JSON.stringify({ requests: Array(1001).fill({ op: 'head', key: k }) })]) {
    const { status, body } = await call(tokens.contributor!, bad);
    assert.equal(status, 400, bad.slice(0, 40));
    assert.equal(body.code, 'validation/invalid');
  }
  const get = await handle(new Request('http://localhost/functions/v1/storage-sign', { method: 'GET' }), deps);
  await get.body?.cancel();
  assert.equal(get.status, 405);
  const options = await handle(new Request('http://localhost/functions/v1/storage-sign', { method: 'OPTIONS' }), deps);
  assert.equal(options.status, 204);
  assert.equal(options.headers.get('access-control-allow-origin'), '*');
  for (const h of ['authorization', 'apikey', 'content-type', 'x-client-info']) {
    assert.match(options.headers.get('access-control-allow-headers')!, new RegExp(`\\b${h}\\b`));
  }
  const ok = await call(tokens.contributor!, { requests: [{ op: 'head', key: k }] });
  assert.ok(ok.body.expiresAt && Math.abs(Date.parse(ok.body.expiresAt) - Date.now() - 3600_000) < 60_000);
});

test('URL lifetime is capped at one hour; missing settings and an unreachable database are backend/unreachable', async () => {
  assert.equal(signDepsFromEnv({ ...testEnv(), STORAGE_SIGN_EXPIRES_IN: '86400' }).expiresIn, 3600);
  assert.equal(signDepsFromEnv({ ...testEnv(), STORAGE_SIGN_EXPIRES_IN: '600' }).expiresIn, 600);
  assert.throws(() => signDepsFromEnv({ ...testEnv(), S3_BUCKET: '' }), ConfigError);
  assert.throws(() => signDepsFromEnv({ ...testEnv(), SUPABASE_JWT_SECRET: '', SUPABASE_URL: '' }), ConfigError);
  const res = misconfigured(new Request('http://localhost/', { method: 'POST' }), new ConfigError('S3_BUCKET is not set'));
  assert.equal(res.status, 500);
  assert.equal((await res.json()).code, 'backend/unreachable');

  const { album, tokens } = await setup();
  // A closed port: the database cannot be reached.
  const down = signDepsFromEnv({ ...testEnv(), SUPABASE_DB_URL: 'postgres://postgres@127.0.0.1:9/postgres' });
  const answer = await handle(new Request('http://localhost/', {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.owner}` },
    body: JSON.stringify({ requests: [{ op: 'head', key: key(album.id, crypto.randomUUID()) }] }),
  }), down);
  assert.equal(answer.status, 500);
  assert.equal((await answer.json()).code, 'backend/unreachable');
  await down.sql.end();
});

test('an upload is finished only once storage-sign has found its original in the bucket, at the size reserved', async () => {
  const { album, tokens } = await setup();
  const finish = (itemId: string) => asUser(sql, album.contributor, (tx) => tx`select status from public.finalize_item(${album.id}, ${itemId}, ${tx.json({ sha256: 'a'.repeat(64) })})`);
  const stored = async (token: string, ...keys: unknown[]) => {
    const { status, body } = await call(token, { stored: keys });
    assert.equal(status, 200, JSON.stringify(body));
    return body.stored as unknown[];
  };
  const empty = await reserveItem(sql, album.contributor, album.id);
  const short = await reserveItem(sql, album.contributor, album.id);
  const whole = await reserveItem(sql, album.contributor, album.id);

  // Nothing sent: nothing recorded, and the row cannot be finished.
  assert.deepEqual(await stored(tokens.contributor!, key(album.id, empty)), [{ key: key(album.id, empty), error: 'upload/interrupted' }]);
  await assert.rejects(finish(empty), /upload\/interrupted/);

  // 999 of the 1,000 bytes reserved: recorded as they are, and refused at finish.
  const [putShort, putWhole] = await sign(tokens.contributor!,
    { op: 'put', key: key(album.id, short), contentType: 'image/jpeg' },
    { op: 'put', key: key(album.id, whole), contentType: 'image/jpeg' });
  await expectStatus(await send(signed(putShort), randomBytes(999)), 200);
  await expectStatus(await send(signed(putWhole), randomBytes(1000)), 200);
  // Only the uploader, only an original; another member's upload and a thumbnail are not theirs to say.
  assert.deepEqual(await stored(tokens.editor!, key(album.id, whole)), [{ key: key(album.id, whole), error: 'storage/denied' }]);
  assert.deepEqual(await stored(tokens.stranger!, key(album.id, whole)), [{ key: key(album.id, whole), error: 'storage/denied' }]);
  assert.deepEqual(
    await stored(tokens.contributor!, key(album.id, whole, 'thumb.webp'), 'albums/x', key(album.id, short), key(album.id, whole)),
    [
      { key: key(album.id, whole, 'thumb.webp'), error: 'validation/invalid' },
      { key: 'albums/x', error: 'validation/invalid' },
      { key: key(album.id, short), bytes: 999 },
      { key: key(album.id, whole), bytes: 1000 },
    ],
  );
  await assert.rejects(finish(short), /upload\/integrity/);
  assert.deepEqual((await finish(whole)).map((r) => r.status), ['ready']);
  // Once ready, it is not an upload in progress: nothing more is recorded for it.
  assert.deepEqual(await stored(tokens.contributor!, key(album.id, whole)), [{ key: key(album.id, whole), error: 'storage/denied' }]);
});
