/**
 * share-upload against a real database and a real S3 gateway: a guest adds, sees and takes back their own
 * files and nothing else, within the link's limits, and only while the link takes uploads.
 */
import assert from 'node:assert/strict';
import { asUser, key, markStored, reserveItem, test } from '../_shared/test-world.ts';
import { albumWithLink, call, deps, file, join, ok, openVisit, readObject, send, sha, signed, sql, uploadAsGuest } from './upload-test-kit.ts';

/** A member's finished item with its original in the bucket. */
async function memberPhoto(album: { id: string; contributor: string }, body: string, sha256 = sha(Math.floor(Math.random() * 1e12))): Promise<string> {
  const id = await reserveItem(sql, album.contributor, album.id);
  const put = await deps.presign({ op: 'put', key: key(album.id, id), contentType: 'image/jpeg' }, {}, 60, new Date());
  assert.equal((await send(put, body)).status, 200);
  await markStored(sql, id);
  await asUser(sql, album.contributor, (tx) => tx`select public.finalize_item(${album.id}, ${id}, ${tx.json({ sha256 })})`);
  return id;
}

test('a guest adds two photos: items without an uploader, credited by the guest\'s name, one activity line "Ana (guest)"', async () => {
  const { album, visit } = await albumWithLink();
  const guest = await join(visit, '  Ana ');
  const a = await uploadAsGuest(visit, guest);
  const b = await uploadAsGuest(visit, guest);

  const rows = await asUser(sql, album.viewer, (tx) => tx<{ id: string; uploader_id: string | null; guest_label: string; status: string }[]>`
    select id::text, uploader_id::text, guest_label, status from public.items where album_id = ${album.id} order by id`);
  assert.deepEqual(rows.map((r) => r.id).sort(), [a, b].sort());
  for (const r of rows) assert.deepEqual({ uploader: r.uploader_id, label: r.guest_label, status: r.status }, { uploader: null, label: 'Ana', status: 'ready' });

  const feed = await asUser(sql, album.viewer, (tx) => tx<{ actor_name: string; count: number; subject_kind: string }[]>`
    select actor_name, count, subject_kind from public.activity_feed where album_id = ${album.id} and verb = 'added_items'`);
  assert.deepEqual(feed.map((f) => ({ ...f })), [{ actor_name: 'Ana (guest)', count: 2, subject_kind: 'image' }]);

  const mine = await ok({ op: 'mine', visit, guest });
  assert.deepEqual(mine.items.map((i: { id: string }) => i.id).sort(), [a, b].sort());
  assert.deepEqual(mine.limits, { maxFiles: null, maxBytes: null, usedFiles: 2, usedBytes: 2 * 'guest photo bytes'.length });
  assert.ok(!JSON.stringify(mine).includes('albums/'), 'no storage key reaches the guest');
});

test('no client reads a guest token hash: the guest tables are closed to anon and authenticated', async () => {
  const { album, visit } = await albumWithLink();
  await join(visit, 'Ana');
  for (const table of ['share_guests', 'share_guest_items']) {
    await assert.rejects(asUser(sql, album.owner, (tx) => tx.unsafe(`select * from public.${table}`)), /permission denied/);
  }
});

test('a guest deletes only their own uploads: another guest\'s and members\' items stay, with their bytes', async () => {
  const { album, visit } = await albumWithLink();
  const ana = await join(visit, 'Ana');
  const ben = await join(visit, 'Ben');
  const anas = await uploadAsGuest(visit, ana, new TextEncoder().encode('ana bytes'));
  const bens = await uploadAsGuest(visit, ben, new TextEncoder().encode('ben bytes'));
  const members = await memberPhoto(album, 'member bytes');

  const answer = await ok({ op: 'delete', visit, guest: ana, itemIds: [anas, bens, members] });
  assert.deepEqual(answer.deleted, [anas]);

  const left = await sql<{ id: string }[]>`select id::text from public.items where album_id = ${album.id} order by id`;
  assert.deepEqual(left.map((r) => r.id).sort(), [bens, members].sort());
  assert.equal(await readObject(key(album.id, bens)), 'ben bytes');
  assert.equal(await readObject(key(album.id, members)), 'member bytes');
  assert.equal(await readObject(key(album.id, anas)), null, 'the deleted original is gone from the bucket');
  assert.deepEqual((await ok({ op: 'mine', visit, guest: ana })).items, []);

  // Ben cannot take back the member's item either, and nothing of it changes.
  assert.deepEqual((await ok({ op: 'delete', visit, guest: ben, itemIds: [members] })).deleted, []);
  assert.equal(await readObject(key(album.id, members)), 'member bytes');
});

test('a guest signs only their own items: another\'s key, a finished item\'s write and any delete are refused, with no URL', async () => {
  const { album, visit } = await albumWithLink();
  const ana = await join(visit, 'Ana');
  const ben = await join(visit, 'Ben');
  const bensPending = file();
  await ok({ op: 'reserve', visit, guest: ben, items: [bensPending] });
  const anasDone = await uploadAsGuest(visit, ana);
  const members = await memberPhoto(album, 'member bytes');

  const { results } = await ok({
    op: 'sign', visit, guest: ana, requests: [
      { op: 'put', key: key(album.id, bensPending.id), contentType: 'image/jpeg' },
      { op: 'get', key: key(album.id, members) },
      { op: 'head', key: key(album.id, members) },
      { op: 'put', key: key(album.id, anasDone), contentType: 'image/jpeg' },
      { op: 'delete', key: key(album.id, anasDone) },
      { op: 'get', key: key(album.id, anasDone) },
    ],
  });
  assert.deepEqual(results.slice(0, 5), Array(5).fill({ error: 'storage/denied' }));
  assert.ok(!JSON.stringify(results.slice(0, 5)).includes('http'), 'no URL for a key that is not the guest\'s');
  // Their own finished photo they may read back (for "Your uploads").
  const got = await send(results[5]);
  assert.equal(got.status, 200);
  assert.equal(await got.text(), 'guest photo bytes');
});

test('a guest writes the sidecar of their own upload while it is in progress, one PUT at its length, never reads one; taking an item back deletes it', async () => {
  const { album, visit } = await albumWithLink();
  const ana = await join(visit, 'Ana');
  const ben = await join(visit, 'Ben');
  const pending = file();
  await ok({ op: 'reserve', visit, guest: ana, items: [pending] });
  const bens = file();
  await ok({ op: 'reserve', visit, guest: ben, items: [bens] });
  const done = await uploadAsGuest(visit, ana);
  const xmp = (id: string) => key(album.id, id, 'original.xmp');
  const sidecar = '<x:xmpmeta xmlns:x="adobe:ns:meta/"/>';
  const put = (id: string, contentLength = sidecar.length, contentType = 'application/octet-stream') => ({ op: 'put', key: xmp(id), contentType, contentLength });
  const { results } = await ok({
    op: 'sign', visit, guest: ana, requests: [
      put(pending.id),
      put(pending.id, 2 * 1024 * 1024 + 1),
      put(pending.id, sidecar.length, 'application/rdf+xml'),
      { op: 'put', key: xmp(pending.id), contentType: 'application/octet-stream' },
      { op: 'create', key: xmp(pending.id), contentType: 'application/octet-stream' },
      { op: 'get', key: xmp(pending.id) },
      put(done),
      put(bens.id),
    ],
  });
  assert.deepEqual(results.slice(1), [
    { error: 'upload/too-large' },
    { error: 'upload/unsupported' },
    { error: 'validation/invalid' },
    { error: 'storage/denied' },
    { error: 'storage/denied' },
    { error: 'storage/denied' },
    { error: 'storage/denied' },
  ]);
  // Signed at its length: the sidecar goes in, and a longer body would not.
  assert.notEqual((await send(signed(results[0]), `${sidecar}   `)).status, 200);
  assert.equal((await send(signed(results[0]), sidecar)).status, 200);
  assert.equal(await readObject(xmp(pending.id)), sidecar);

  // An editor gave the guest's photo details, and its sidecar was written; the guest takes the photo back.
  const written = await deps.presign({ op: 'put', key: xmp(done), contentType: 'application/octet-stream' }, {}, 60, new Date());
  assert.equal((await send(written, '<x:xmpmeta/>')).status, 200);
  assert.deepEqual((await ok({ op: 'delete', visit, guest: ana, itemIds: [done] })).deleted, [done]);
  assert.equal(await readObject(xmp(done)), null, 'the sidecar is gone with the original');
  assert.equal(await readObject(key(album.id, done)), null);
});

test('limits per guest: the next reserve past the files or the bytes is upload/quota-exceeded; each browser has its own', async () => {
  const files = await albumWithLink({ guestMaxFiles: 2 });
  const ana = await join(files.visit, 'Ana');
  await ok({ op: 'reserve', visit: files.visit, guest: ana, items: [file(), file()] });
  const third = await call({ op: 'reserve', visit: files.visit, guest: ana, items: [file()] });
  assert.deepEqual([third.status, third.body.code], [403, 'upload/quota-exceeded']);
  // Ben, in another browser, has his own.
  const benVisit = await openVisit(files.token);
  const ben = await join(benVisit, 'Ben');
  await ok({ op: 'reserve', visit: benVisit, guest: ben, items: [file()] });

  const bytes = await albumWithLink({ guestMaxBytes: 1500 });
  const cy = await join(bytes.visit, 'Cy');
  await ok({ op: 'reserve', visit: bytes.visit, guest: cy, items: [file(1000)] });
  const over = await call({ op: 'reserve', visit: bytes.visit, guest: cy, items: [file(501)] });
  assert.deepEqual([over.status, over.body.code], [403, 'upload/quota-exceeded']);
  await ok({ op: 'reserve', visit: bytes.visit, guest: cy, items: [file(500)] });
  assert.deepEqual((await ok({ op: 'mine', visit: bytes.visit, guest: cy })).limits, { maxFiles: null, maxBytes: 1500, usedFiles: 2, usedBytes: 1500 });
});

test('limits hold when one guest reserves from two tabs at once: the second waits for the first, then is refused', async () => {
  const { linkId, visit } = await albumWithLink({ guestMaxFiles: 1 });
  const ana = await join(visit, 'Ana');
  const reserve = (tx: typeof sql) => tx`select private.guest_reserve(${linkId}::uuid, ${ana}, ${tx.json([file()])})`;
  let reserved!: () => void;
  let commit!: () => void;
  const firstReserved = new Promise<void>((r) => (reserved = r));
  const gate = new Promise<void>((r) => (commit = r));
  const first = sql.begin(async (tx) => {
    await reserve(tx as unknown as typeof sql);
    reserved();
    await gate;
  });
  await firstReserved;
  // The second tab's reserve runs while the first has not committed yet.
  const second = sql.begin((tx) => reserve(tx as unknown as typeof sql));
  await new Promise((r) => setTimeout(r, 300));
  commit();
  const [a, b] = await Promise.allSettled([first, second]);
  assert.equal(a.status, 'fulfilled');
  assert.equal(b.status, 'rejected', 'the second reserve must not pass the limit of one file');
  assert.match(String((b as PromiseRejectedResult).reason?.message), /upload\/quota-exceeded/);
});

test('a file whose sha256 is already a ready item of the album is not reserved but named a duplicate', async () => {
  const { album, visit } = await albumWithLink();
  const known = sha(424242);
  await memberPhoto(album, 'member bytes', known);
  const ana = await join(visit, 'Ana');
  const dup = file(1000, known);
  const fresh = file(1000, sha(7));
  const answer = await ok({ op: 'reserve', visit, guest: ana, items: [dup, fresh] });
  assert.deepEqual(answer.duplicates, [dup.id]);
  assert.deepEqual(answer.items.map((i: { id: string }) => i.id), [fresh.id]);
  assert.equal((await sql`select 1 from public.items where id = ${dup.id}`).length, 0);
});

test('a revoked, expired or upload-less link, a forged visit or an unknown guest refuses every op', async () => {
  const ops = (visit: string, guest: string, itemId: string, albumId: string) => [
    { op: 'join', visit, name: 'Zed' },
    { op: 'reserve', visit, guest, items: [file()] },
    { op: 'sign', visit, guest, requests: [{ op: 'get', key: key(albumId, itemId) }] },
    { op: 'finalize', visit, guest, itemId, input: { sha256: sha(1) } },
    { op: 'fail', visit, guest, itemId },
    { op: 'mine', visit, guest },
    { op: 'delete', visit, guest, itemIds: [itemId] },
  ];
  const cases: [string, (w: Awaited<ReturnType<typeof albumWithLink>>) => Promise<unknown>, number, string][] = [
    ['revoked', (w) => asUser(sql, w.album.owner, (tx) => tx`update public.share_links set revoked_at = now() where id = ${w.linkId}`), 410, 'share/revoked'],
    ['expired', (w) => sql`update public.share_links set created_at = now() - interval '2 days', expires_at = now() - interval '1 minute' where id = ${w.linkId}`, 410, 'share/expired'],
    ['uploads off', (w) => asUser(sql, w.album.owner, (tx) => tx`update public.share_links set allow_guest_upload = false where id = ${w.linkId}`), 403, 'album/forbidden'],
    ['album deleted', (w) => asUser(sql, w.album.owner, (tx) => tx`select public.delete_album(${w.album.id})`), 404, 'share/not-found'],
  ];
  for (const [name, breakLink, status, code] of cases) {
    const w = await albumWithLink();
    const guest = await join(w.visit, 'Ana');
    const itemId = await uploadAsGuest(w.visit, guest);
    await breakLink(w);
    for (const body of ops(w.visit, guest, itemId, w.album.id)) {
      const a = await call(body);
      assert.deepEqual([a.status, a.body.code], [status, code], `${name}: ${body.op}`);
      assert.ok(!JSON.stringify(a.body).includes('http'), `${name}: ${body.op} answers no URL`);
    }
    assert.equal((await sql`select 1 from public.items where id = ${itemId}`).length, 1, `${name}: nothing was deleted`);
  }

  const w = await albumWithLink();
  const guest = await join(w.visit, 'Ana');
  const itemId = await uploadAsGuest(w.visit, guest);
  for (const body of ops('forged-visit-token-0000', guest, itemId, w.album.id)) {
    const a = await call(body);
    assert.deepEqual([a.status, a.body.code], [401, 'share/password-required'], `forged visit: ${body.op}`);
  }
  for (const body of ops(w.visit, 'not-a-guest-token-000000', itemId, w.album.id).slice(1)) {
    const a = await call(body);
    assert.deepEqual([a.status, a.body.code, a.body.details?.field], [400, 'validation/invalid', 'guest'], `unknown guest: ${body.op}`);
  }
  // A guest of another link is nobody here.
  const other = await albumWithLink();
  const stranger = await join(other.visit, 'Stan');
  const a = await call({ op: 'delete', visit: w.visit, guest: stranger, itemIds: [itemId] });
  assert.equal(a.body.code, 'validation/invalid');
  assert.equal((await sql`select 1 from public.items where id = ${itemId}`).length, 1);
});

test('a guest\'s reserve never takes over an id that is already someone\'s item', async () => {
  const { album, visit } = await albumWithLink();
  const pending = await reserveItem(sql, album.contributor, album.id);
  await asUser(sql, album.contributor, (tx) => tx`select public.fail_item(${album.id}, ${pending})`);
  const ana = await join(visit, 'Ana');
  const a = await call({ op: 'reserve', visit, guest: ana, items: [{ ...file(), id: pending }] });
  assert.equal(a.body.code, 'validation/invalid');
  const [row] = await sql<{ uploader_id: string }[]>`select uploader_id::text from public.items where id = ${pending}`;
  assert.equal(row!.uploader_id, album.contributor);
});

test('a name is 1 to 60 characters of clean text', async () => {
  const { visit } = await albumWithLink();
  for (const name of ['', '   ', 'x'.repeat(61), 'Ana\u202e', 42]) {
    const a = await call({ op: 'join', visit, name });
    assert.deepEqual([a.body.code, a.body.details], ['validation/invalid', { field: 'guestName', rule: 'invalid' }], JSON.stringify(name));
  }
});

test('members hear a guest\'s photo live when it is finished, credited by the guest\'s name and with no key of the guest', async () => {
  const { album, visit } = await albumWithLink();
  const guest = await join(visit, 'Ana');
  const id = await uploadAsGuest(visit, guest);
  const sent = await sql<{ payload: { row?: Record<string, unknown> } }[]>`
    select payload from realtime.messages where topic = ${'album-db:' + album.id} and payload -> 'row' ->> 'id' = ${id}`;
  assert.ok(sent.length >= 1, 'the finished item was sent to the album\'s changes topic');
  const row = sent.at(-1)!.payload.row!;
  assert.deepEqual([row.status, row.uploader_id, row.guest_label], ['ready', null, 'Ana']);
  assert.ok(!JSON.stringify(sent).includes(guest), 'the guest token never travels');
});

test('a finalize with a bad width, thumbhash, date or flag is refused as invalid (400), and the upload can still finish', async () => {
  const { visit } = await albumWithLink();
  const guest = await join(visit, 'Ana');
  const f = file(17);
  const reserved = await ok({ op: 'reserve', visit, guest, items: [f] });
  const albumId = reserved.items[0].album_id as string;
  const [put] = (await ok({ op: 'sign', visit, guest, requests: [{ op: 'put', key: `albums/${albumId}/${f.id}/original`, contentType: 'image/jpeg', contentLength: 17 }] })).results;
  assert.equal((await send(signed(put), new TextEncoder().encode('guest photo bytes'))).status, 200);
  const sha256 = sha(4242);
  for (const input of [
    { sha256, width: -5, height: 10 },
    { sha256, width: 1e12 },
    { sha256, thumbhash: 'x'.repeat(65) },
    { sha256, taken_at: 'yesterday-ish' },
    { sha256, has_thumb: 'perhaps' },
  ]) {
    const a = await call({ op: 'finalize', visit, guest, itemId: f.id, input });
    assert.deepEqual([a.status, a.body.code], [400, 'validation/invalid'], JSON.stringify(input));
  }
  const done = await ok({ op: 'finalize', visit, guest, itemId: f.id, input: { sha256, width: 4000, height: 3000 } });
  assert.equal(done.item.status, 'ready');
});

test('guests cannot block an album: 1,000 unfinished uploads per link, 2,000 per album, 1,000 guests per link; members still upload', async () => {
  const first = await albumWithLink();
  const album = first.album;
  /** Another link of the same album, opened. */
  const anotherLink = async () => {
    const [row] = await asUser(sql, album.owner, (tx) => tx<{ link_id: string; token: string }[]>`
      select link_id::text, token from public.create_share_link(${album.id}, ${tx.json({ allow_guest_upload: true })})`);
    return { linkId: row!.link_id, visit: await openVisit(row!.token) };
  };
  const batch = (n: number) => Array.from({ length: n }, () => file(10));

  const ana = await join(first.visit, 'Ana');
  assert.equal((await ok({ op: 'reserve', visit: first.visit, guest: ana, items: batch(1000) })).items.length, 1000);
  const bea = await join(first.visit, 'Bea');
  const full = await call({ op: 'reserve', visit: first.visit, guest: bea, items: batch(1) });
  assert.deepEqual([full.status, full.body.code], [403, 'upload/quota-exceeded']);

  const second = await anotherLink();
  const cid = await join(second.visit, 'Cid');
  assert.equal((await ok({ op: 'reserve', visit: second.visit, guest: cid, items: batch(1000) })).items.length, 1000);
  const third = await anotherLink();
  const dee = await join(third.visit, 'Dee');
  const albumFull = await call({ op: 'reserve', visit: third.visit, guest: dee, items: batch(1) });
  assert.deepEqual([albumFull.status, albumFull.body.code], [403, 'upload/quota-exceeded']);

  // The owner's own upload is not held back by what guests left unfinished.
  await reserveItem(sql, album.owner, album.id);

  // The thousandth guest of a link joins; the next is refused.
  await sql`insert into public.share_guests (link_id, token_hash, name)
            select ${third.linkId}::uuid, encode(sha256(convert_to(gen_random_uuid()::text, 'UTF8')), 'hex'), 'Guest'
            from generate_series(1, 998)`;
  await join(third.visit, 'Eve');
  const crowd = await call({ op: 'join', visit: third.visit, name: 'Fay' });
  assert.deepEqual([crowd.status, crowd.body.code], [403, 'upload/quota-exceeded']);
});

test('per guest means per browser: joining again from the same visit gives a new name, not a new allowance', async () => {
  const { visit, token } = await albumWithLink({ guestMaxFiles: 1, guestMaxBytes: 100 });
  const first = await join(visit, 'Ana');
  await uploadAsGuest(visit, first);
  for (const name of ['Ana 2', 'Ana 3', 'Ana 4']) {
    const again = await join(visit, name);
    const refused = await call({ op: 'reserve', visit, guest: again, items: [file(10)] });
    assert.deepEqual([refused.status, refused.body.code], [403, 'upload/quota-exceeded'], name);
    const mine = await ok({ op: 'mine', visit, guest: again });
    assert.equal(mine.limits.usedFiles, 1);
  }
  // Another browser (another visit of the link, counted as a view) is another guest.
  const other = await openVisit(token);
  await uploadAsGuest(other, await join(other, 'Bea'));
});

test('a guest\'s writes are signed at the reserved size: a bigger PUT or part is refused by the bucket, more parts are not signed', async () => {
  const { visit, album } = await albumWithLink();
  const guest = await join(visit, 'Ana');
  const MiB = 1024 * 1024;
  const small = file(10);
  const large = file(5 * MiB + 1000);
  await ok({ op: 'reserve', visit, guest, items: [small, large] });
  const keyOf = (f: { id: string }, name = 'original') => `albums/${album.id}/${f.id}/${name}`;
  const sign = async (requests: unknown[]) => (await ok({ op: 'sign', visit, guest, requests })).results;

  // One PUT: only at the size reserved, and the bucket takes no other body under that signature.
  const puts = await sign([
    { op: 'put', key: keyOf(small), contentType: 'image/jpeg' },
    { op: 'put', key: keyOf(small), contentType: 'image/jpeg', contentLength: 8 * MiB },
    { op: 'put', key: keyOf(small, 'thumb.webp'), contentType: 'image/webp', contentLength: 17 * MiB },
    { op: 'create', key: keyOf(small, 'preview.webp'), contentType: 'image/webp' },
    { op: 'put', key: keyOf(small), contentType: 'image/jpeg', contentLength: 10 },
  ]);
  assert.deepEqual(puts.slice(0, 4), [{ error: 'validation/invalid' }, { error: 'upload/integrity' }, { error: 'upload/too-large' }, { error: 'storage/denied' }]);
  assert.equal((await send(signed(puts[4]), new Uint8Array(8 * MiB))).status, 403, '8 MiB under a 10-byte signature');
  assert.equal((await send(signed(puts[4]), new TextEncoder().encode('ten bytes!'))).status, 200);
  assert.equal((await ok({ op: 'finalize', visit, guest, itemId: small.id, input: { sha256: sha(1) } })).item.bytes, 10);

  // Parts: each at the length its number gives under the part size the first part fixed; none past the last.
  const [create] = await sign([{ op: 'create', key: keyOf(large), contentType: 'image/jpeg' }]);
  const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(await (await send(signed(create))).text())![1]!;
  const part = (partNumber: number, partSize?: number) => ({ op: 'part', key: keyOf(large), uploadId, partNumber, ...(partSize ? { partSize } : {}) });
  const parts = await sign([part(1, 5 * MiB), part(2, 5 * MiB), part(3, 5 * MiB), part(2), part(2, 6 * MiB)]);
  assert.deepEqual(parts.slice(2), [{ error: 'upload/too-large' }, { error: 'validation/invalid' }, { error: 'upload/integrity' }]);
  assert.equal((await send(signed(parts[1]), new Uint8Array(5 * MiB))).status, 403, 'a whole part where the last 1,000 bytes belong');
  const first = await send(signed(parts[0]), new Uint8Array(5 * MiB));
  assert.equal(first.status, 200);
  const [complete] = await sign([{ op: 'complete', key: keyOf(large), uploadId }]);
  const completeWith = (etags: string[]) =>
    `<CompleteMultipartUpload>${etags.map((e, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${e}</ETag></Part>`).join('')}</CompleteMultipartUpload>`;

  // Completed short of its last part, the object is smaller than reserved: finishing refuses it and deletes it.
  assert.equal((await send(signed(complete), completeWith([first.headers.get('etag')!]))).status, 200);
  const short = await call({ op: 'finalize', visit, guest, itemId: large.id, input: { sha256: sha(2) } });
  assert.deepEqual([short.status, short.body.code], [400, 'upload/integrity']);
  assert.equal(await readObject(keyOf(large)), null);

  // Sent whole, at the fixed part size, it finishes.
  const [again] = await sign([{ op: 'create', key: keyOf(large), contentType: 'image/jpeg' }]);
  const id2 = /<UploadId>([^<]+)<\/UploadId>/.exec(await (await send(signed(again))).text())![1]!;
  const [p1, p2] = await sign([1, 2].map((n) => ({ op: 'part', key: keyOf(large), uploadId: id2, partNumber: n, partSize: 5 * MiB })));
  const etags = [(await send(signed(p1), new Uint8Array(5 * MiB))).headers.get('etag')!, (await send(signed(p2), new Uint8Array(1000))).headers.get('etag')!];
  const [complete2] = await sign([{ op: 'complete', key: keyOf(large), uploadId: id2 }]);
  assert.equal((await send(signed(complete2), completeWith(etags))).status, 200);
  assert.equal((await ok({ op: 'finalize', visit, guest, itemId: large.id, input: { sha256: sha(2) } })).item.bytes, 5 * MiB + 1000);
});

test('a guest\'s upload that is not in the bucket yet is not finished', async () => {
  const { visit } = await albumWithLink();
  const guest = await join(visit, 'Ana');
  const f = file(10);
  await ok({ op: 'reserve', visit, guest, items: [f] });
  const early = await call({ op: 'finalize', visit, guest, itemId: f.id, input: { sha256: sha(7) } });
  assert.deepEqual([early.status, early.body.code], [409, 'upload/interrupted']);
});

test('a guest\'s text file stored compressed is signed and finished at its stored size, and keeps the file\'s own size', async () => {
  const { visit } = await albumWithLink();
  const guest = await join(visit, 'Ana');
  const text = new TextEncoder().encode('date,km\n'.repeat(500));
  const packed = new TextEncoder().encode('stands for 40 gzip bytes, no more, no less');
  const f = { ...file(text.length), filename: 'rides.csv', mime: 'text/plain', kind: 'file', stored: { encoding: 'gzip', bytes: packed.length } };
  const reserved = await ok({ op: 'reserve', visit, guest, items: [f] });
  assert.deepEqual([reserved.items[0].stored_encoding, Number(reserved.items[0].stored_bytes), Number(reserved.items[0].bytes)], ['gzip', packed.length, text.length]);
  const albumId = reserved.items[0].album_id as string;
  const sign = async (contentLength: number) => (await ok({ op: 'sign', visit, guest, requests: [{ op: 'put', key: `albums/${albumId}/${f.id}/original`, contentType: 'application/octet-stream', contentLength }] })).results[0];
  // Stored as bytes to download (text is never served inline), and signed at the stored size only.
  assert.equal((await sign(text.length)).error, 'upload/integrity');
  assert.equal((await send(signed(await sign(packed.length)), packed)).status, 200);
  const done = await ok({ op: 'finalize', visit, guest, itemId: f.id, input: { sha256: sha(77) } });
  assert.deepEqual([done.item.status, done.item.stored_encoding, Number(done.item.bytes)], ['ready', 'gzip', text.length]);
  const refused = await call({ op: 'reserve', visit, guest, items: [{ ...file(100), stored: { encoding: 'gzip', bytes: 100 } }] });
  assert.deepEqual([refused.status, refused.body.code], [400, 'validation/invalid']);
});
