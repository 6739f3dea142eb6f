/**
 * storage-sign and the types objects are stored and served with: no upload may store a type a browser would
 * render as a page on the bucket's origin, and no download is served with one, against the real gateway.
 */
import assert from 'node:assert/strict';
import { key, reserveItem, test } from '../_shared/test-world.ts';
import * as client from '../../../src/backend/s3/content-types.ts';
import { DERIVED_TYPES, INLINE_ORIGINAL_TYPES } from './content-safety.ts';
import { deps, expectStatus, finalize, send, setup, sign, signed, sql } from './sign-test-kit.ts';

const SMUGGLED = 'image/png; x=1, text/html';
const unsupported = { error: 'upload/unsupported' };

test('a type smuggled behind a parameter is refused for originals, previews, thumbnails and posters', async () => {
  const { album, tokens } = await setup();
  const itemId = await reserveItem(sql, album.contributor, album.id, { filename: 'x.png', mime: 'image/png' });
  const results = await sign(tokens.contributor!,
    { op: 'put', key: key(album.id, itemId), contentType: SMUGGLED },
    { op: 'create', key: key(album.id, itemId), contentType: SMUGGLED },
    { op: 'put', key: key(album.id, itemId), contentType: 'image/png;charset=utf-8' },
    { op: 'put', key: key(album.id, itemId), contentType: 'IMAGE/PNG' },
    ...['preview.webp', 'thumb.webp', 'poster.webp'].map((f) => ({ op: 'put', key: key(album.id, itemId, f), contentType: 'image/webp; x=1, text/html' })),
    { op: 'create', key: key(album.id, itemId, 'preview.webp'), contentType: SMUGGLED },
  );
  assert.deepEqual(results, Array(8).fill(unsupported));
});

test('previews, thumbnails and posters take only image/webp or image/jpeg', async () => {
  const { album, tokens } = await setup();
  const itemId = await reserveItem(sql, album.contributor, album.id);
  const refused = ['text/html', 'image/svg+xml', 'application/xhtml+xml', 'text/xml', 'image/png', 'application/octet-stream'];
  const results = await sign(tokens.contributor!,
    ...refused.map((contentType) => ({ op: 'put', key: key(album.id, itemId, 'thumb.webp'), contentType })),
    { op: 'put', key: key(album.id, itemId, 'preview.webp'), contentType: 'image/svg+xml' },
    { op: 'put', key: key(album.id, itemId, 'thumb.webp'), contentType: 'image/webp' },
    { op: 'create', key: key(album.id, itemId, 'preview.webp'), contentType: 'image/jpeg' },
  );
  assert.deepEqual(results.slice(0, refused.length + 1), Array(refused.length + 1).fill(unsupported));
  assert.equal(signed(results.at(-2)).headers['content-type'], 'image/webp');
  assert.equal(signed(results.at(-1)).headers['content-type'], 'image/jpeg');
});

test('an HTML or SVG original is signed only as application/octet-stream, as the app sends it', async () => {
  const { album, tokens } = await setup();
  const htmlId = await reserveItem(sql, album.contributor, album.id, { filename: 'page.html', mime: 'text/html', kind: 'file' });
  const [asHtml, asSvg, asBytes] = await sign(tokens.contributor!,
    { op: 'put', key: key(album.id, htmlId), contentType: 'text/html' },
    { op: 'create', key: key(album.id, htmlId), contentType: 'image/svg+xml' },
    { op: 'put', key: key(album.id, htmlId), contentType: 'application/octet-stream', contentDisposition: 'inline' },
  );
  assert.deepEqual([asHtml, asSvg], [unsupported, unsupported]);
  assert.deepEqual(signed(asBytes).headers, { 'content-type': 'application/octet-stream', 'content-disposition': "attachment; filename*=UTF-8''page.html" });
  // A photo's type on a row that says HTML is stored as bytes too.
  const [lying] = await sign(tokens.contributor!, { op: 'put', key: key(album.id, htmlId), contentType: 'image/jpeg' });
  assert.equal(signed(lying).headers['content-type'], 'application/octet-stream');
});

test('every GET URL names the type and the disposition: inline for photos and previews, attachment for the rest', async () => {
  const { album, tokens } = await setup();
  const photoId = await reserveItem(sql, album.contributor, album.id);
  const pdfId = await reserveItem(sql, album.contributor, album.id, { filename: 'report.pdf', mime: 'application/pdf', kind: 'file' });
  await finalize(album, photoId);
  await finalize(album, pdfId);
  const urls = await sign(tokens.viewer!,
    { op: 'get', key: key(album.id, photoId) },
    { op: 'get', key: key(album.id, photoId), downloadAs: 'a.jpg' },
    { op: 'get', key: key(album.id, photoId, 'thumb.webp') },
    { op: 'get', key: key(album.id, photoId, 'preview.webp'), downloadAs: 'a.webp' },
    { op: 'get', key: key(album.id, pdfId) },
  );
  const params = urls.map((r) => {
    const q = new URL(signed(r).url).searchParams;
    return [q.get('response-content-type'), q.get('response-content-disposition')];
  });
  assert.deepEqual(params, [
    ['image/jpeg', 'inline'],
    ['image/jpeg', "attachment; filename*=UTF-8''a.jpg"],
    ['image/webp', 'inline'],
    ['image/webp', "attachment; filename*=UTF-8''a.webp"],
    ['application/octet-stream', "attachment; filename*=UTF-8''report.pdf"],
  ]);
});

test('objects stored with a hostile type come back from the gateway as a safe type: an image, or bytes to download', async () => {
  const { album, tokens } = await setup();
  const itemId = await reserveItem(sql, album.contributor, album.id, { filename: 'page.html', mime: 'text/html', kind: 'file' });
  const page = new TextEncoder().encode('<html><script>alert(document.domain)</script></html>');

  // The original through the function's signed PUT (the app sends HTML as bytes).
  const [put] = await sign(tokens.contributor!, { op: 'put', key: key(album.id, itemId), contentType: 'application/octet-stream' });
  await expectStatus(await send(signed(put), page), 200);
  // A thumbnail and a preview with the smuggled type, signed as a PUT was before this check existed.
  for (const f of ['thumb.webp', 'preview.webp']) {
    const old = await deps.presign({ op: 'put', key: key(album.id, itemId, f), contentType: SMUGGLED }, {}, 600, new Date());
    assert.equal(old.headers['content-type'], SMUGGLED);
    await expectStatus(await send(old, page), 200);
  }
  await finalize(album, itemId);

  const gets = await sign(tokens.viewer!, ...['original', 'thumb.webp', 'preview.webp'].map((f) => ({ op: 'get', key: key(album.id, itemId, f) })));
  const seen = [];
  for (const g of gets) {
    const res = await send(signed(g));
    assert.deepEqual(new Uint8Array(await res.arrayBuffer()), page);
    seen.push([res.headers.get('content-type'), res.headers.get('content-disposition')]);
  }
  assert.deepEqual(seen, [
    ['application/octet-stream', "attachment; filename*=UTF-8''page.html"],
    ['image/webp', 'inline'],
    ['image/webp', 'inline'],
  ]);
  // What the viewer's browser is told: never a type it would parse as a page. (HTML bytes under an image type
  // fail to decode as an image; a browser does not sniff image types into HTML.)
  assert.ok(!seen.some(([type]) => /html|xml|svg/.test(type ?? '')));
});

test('a sidecar is served as bytes to download, never as XML a browser would run, whatever type it was stored with', async () => {
  const { album, tokens } = await setup();
  const itemId = await reserveItem(sql, album.contributor, album.id);
  await finalize(album, itemId);
  const k = key(album.id, itemId, 'original.xmp');
  // XML in the XHTML namespace: a browser shown it as XML runs its script on the bucket's origin.
  const page = new TextEncoder().encode('<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(document.domain)</script></html>');
  // Stored under a hostile type by a request signed without this function's checks.
  const old = await deps.presign({ op: 'put', key: k, contentType: 'application/xhtml+xml', contentDisposition: 'inline' }, {}, 600, new Date());
  await expectStatus(await send(old, page), 200);

  const [plain, named] = await sign(tokens.viewer!, { op: 'get', key: k }, { op: 'get', key: k, downloadAs: 'IMG_0001.xmp' });
  const params = [plain, named].map((r) => {
    const q = new URL(signed(r).url).searchParams;
    return [q.get('response-content-type'), q.get('response-content-disposition')];
  });
  assert.deepEqual(params, [
    ['application/octet-stream', 'attachment'],
    ['application/octet-stream', "attachment; filename*=UTF-8''IMG_0001.xmp"],
  ]);
  const res = await send(signed(plain));
  assert.deepEqual(new Uint8Array(await res.arrayBuffer()), page);
  assert.deepEqual([res.headers.get('content-type'), res.headers.get('content-disposition')], ['application/octet-stream', 'attachment']);

  // And an editor's write of it is signed only as bytes: XML types are refused.
  const puts = await sign(tokens.editor!,
    ...['text/xml', 'application/rdf+xml', 'application/xhtml+xml'].map((contentType) => ({ op: 'put', key: k, contentType, contentLength: page.byteLength })),
    { op: 'put', key: k, contentType: 'application/octet-stream', contentLength: page.byteLength });
  assert.deepEqual(puts.slice(0, 3), Array(3).fill(unsupported));
  assert.deepEqual(signed(puts[3]).headers, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment' });
});

Deno.test("the function's lists are the app's: what the browser sends is what the function signs", () => {
  assert.deepEqual([...INLINE_ORIGINAL_TYPES].sort(), [...client.INLINE_ORIGINAL_TYPES].sort());
  assert.deepEqual([...DERIVED_TYPES].sort(), [...client.DERIVED_TYPES].sort());
});
