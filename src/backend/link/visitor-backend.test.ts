import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error';
import type { FunctionsPort } from '../ports';
import { SHARED_ALBUM_ID } from '../link-types';
import { createLinkVisitorBackend } from './visitor-backend';
import { sharedKey } from './link-object-keys';
import { LinkVisitor } from './link-visitor';

const MIN = 60_000;

/** share-open's answers as the contract words them, with a clock the test moves; records every call. */
function server(opts: { urlLife: number }) {
  const calls: Record<string, unknown>[] = [];
  let revoked = false;
  const functions: FunctionsPort = {
    async invoke<T>(name: string, body: unknown): Promise<T> {
      const b = body as Record<string, unknown>;
      calls.push(b);
      if (name !== 'share-open') throw new Error(name);
      if (revoked) throw new AppError('share/revoked', 'Revoked.');
      const expiresAt = new Date(Date.now() + opts.urlLife).toISOString();
      const answers: Record<string, unknown> = {
        open: {
          visit: 'v1',
          visitExpiresAt: new Date(Date.now() + 12 * 60 * MIN).toISOString(),
          link: { label: null, expiresAt: null, allowDownload: true, allowGuestUpload: false, originals: true, guestMaxFiles: null, guestMaxBytes: null },
          album: { title: 'Algarve', description: '', itemCount: 2, coverThumbhash: null, coverUrl: null },
          months: [{ month: '2026-07', count: 2 }],
        },
        counts: { months: [{ month: '2026-07', count: 2 }] },
        items: {
          rows: ['a', 'b'].map((id) => ({
            id, kind: 'image', filename: `${id}.jpg`, mime: 'image/jpeg', bytes: 1, width: 4, height: 3, durationMs: null, takenAt: null,
            createdAt: '2026-07-01T00:00:00Z', thumbhash: null, metadata: {}, addedBy: id === 'a' ? 'Ana' : 'Ben (guest)',
            thumbUrl: `https://bucket/${id}/thumb?1`, previewUrl: `https://bucket/${id}/preview?1`, posterUrl: null, originalUrl: `https://bucket/${id}/original?1`,
          })),
          nextCursor: null,
          expiresAt,
        },
        urls: { urls: Object.fromEntries(((b.itemIds as string[]) ?? []).map((id) => [id, `https://bucket/${id}/${String(b.variant)}?2${b.download ? '&dl' : ''}`])), expiresAt },
      };
      return answers[String(b.op)] as T;
    },
  };
  return { functions, calls, revoke: () => (revoked = true) };
}

async function opened(urlLife = 60 * MIN) {
  const srv = server({ urlLife });
  const visitor = new LinkVisitor(srv.functions, `token-${Math.random()}`);
  await visitor.open(undefined);
  return { ...srv, visitor, backend: createLinkVisitorBackend(srv.functions, visitor.token, visitor) };
}

describe('the backend of a link visitor', () => {
  it('answers the first month counts from open, and asks for later ones', async () => {
    const { backend, calls } = await opened();
    expect(await backend.items.countItemsByMonth(SHARED_ALBUM_ID, { sort: 'taken' })).toEqual([{ month: '2026-07', count: 2 }]);
    expect(calls.map((c) => c.op)).toEqual(['open']);
    await backend.items.countItemsByMonth(SHARED_ALBUM_ID, { sort: 'added' });
    expect(calls.at(-1)).toMatchObject({ op: 'counts', sort: 'added', visit: 'v1' });
  });

  it('serves the URLs the page carried without a call, and asks for them again only near their expiry', async () => {
    const fresh = await opened(60 * MIN);
    const page = await fresh.backend.items.listItems(SHARED_ALBUM_ID, { sort: 'taken', month: '2026-07', limit: 500 });
    const keys = page.rows.map((r) => r.thumbKey!);
    expect(keys).toEqual([sharedKey('a', 'thumb'), sharedKey('b', 'thumb')]);
    const before = fresh.calls.length;
    expect([...(await fresh.backend.files.urls(keys)).values()]).toEqual(['https://bucket/a/thumb?1', 'https://bucket/b/thumb?1']);
    expect(fresh.calls.length).toBe(before);

    const stale = await opened(4 * MIN);
    const rows = (await stale.backend.items.listItems(SHARED_ALBUM_ID, { sort: 'taken', limit: 500 })).rows;
    const got = await stale.backend.files.urls([rows[0]!.thumbKey!, rows[1]!.previewKey!]);
    expect(got.get(sharedKey('a', 'thumb'))).toBe('https://bucket/a/thumb?2');
    expect(stale.calls.slice(-2)).toEqual([
      { op: 'urls', itemIds: ['a'], variant: 'thumb', visit: 'v1' },
      { op: 'urls', itemIds: ['b'], variant: 'preview', visit: 'v1' },
    ]);
  });

  it('names who added each item, and keeps no storage key', async () => {
    const { backend } = await opened();
    const rows = (await backend.items.listItems(SHARED_ALBUM_ID, { sort: 'taken', limit: 500 })).rows;
    const members = await backend.members!.listMembers(SHARED_ALBUM_ID);
    expect(rows.map((r) => members.find((m) => m.userId === r.uploaderId)?.displayName)).toEqual(['Ana', 'Ben (guest)']);
    expect(JSON.stringify(rows)).not.toContain('albums/');
    expect((await backend.items.getItem(SHARED_ALBUM_ID, 'b')).filename).toBe('b.jpg');
  });

  it('downloads ask for a URL of their own, and a visitor has none of what only members have', async () => {
    const { backend, calls } = await opened();
    const url = await backend.files.urls([sharedKey('a', 'original')], { downloadAs: 'a.jpg' });
    expect(url.get(sharedKey('a', 'original'))).toBe('https://bucket/a/original?2&dl');
    // No port for comments, hearts, writes or live updates, and files that can only be read.
    expect(Object.keys(backend).sort()).toEqual(['albums', 'capabilities', 'files', 'functions', 'items', 'members', 'visit']);
    expect(Object.keys(backend.files).sort()).toEqual(['read', 'urls']);
    expect(Object.keys(backend.albums)).toEqual(['getAlbum']);
    expect(calls.at(-1)).toMatchObject({ op: 'urls', itemIds: ['a'], variant: 'original' });
  });

  it('after the link is revoked, stops: later calls fail at once without asking', async () => {
    const { backend, calls, revoke, visitor } = await opened();
    const stops: string[] = [];
    visitor.onStop((e) => stops.push(e.code));
    revoke();
    await expect(backend.items.listItems(SHARED_ALBUM_ID, { sort: 'taken' })).rejects.toMatchObject({ code: 'share/revoked' });
    const asked = calls.length;
    await expect(backend.items.countItemsByMonth(SHARED_ALBUM_ID, { sort: 'added' })).rejects.toMatchObject({ code: 'share/revoked' });
    await expect(backend.files.urls([sharedKey('z', 'thumb')])).rejects.toMatchObject({ code: 'share/revoked' });
    expect(calls.length).toBe(asked);
    expect(stops).toEqual(['share/revoked']);
  });
});
