/**
 * share_link_guest_counts: how many items guests added through each share link, for the album settings'
 * links list. Guests' tables are readable by no client, so this is the one way a member learns the numbers.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorOf, startCast, type Actor, type Harness } from './db-harness';
import { seedGuestItems } from './share-link-seed';

let db: Harness, owner: Actor, editor: Actor, contributor: Actor, viewer: Actor, stranger: Actor;

beforeAll(async () => ({ db, owner, editor, contributor, viewer, stranger } = await startCast()));
afterAll(() => db?.close());

async function album(): Promise<string> {
  const [a] = await db.as(owner, (q) => q.query<{ id: string }>(`select * from public.create_album('Party')`), { commit: true });
  for (const [who, role] of [[editor, 'editor'], [contributor, 'contributor'], [viewer, 'viewer']] as const) {
    const [inv] = await db.as(owner, (q) => q.query<{ token: string }>(`select * from public.create_invite($1, $2)`, [a!.id, role]), { commit: true });
    await db.as(who, (q) => q.query(`select * from public.accept_invite($1)`, [inv!.token]), { commit: true });
  }
  return a!.id;
}

async function guestLink(albumId: string): Promise<string> {
  const [link] = await db.as(owner, (q) => q.query<{ link_id: string }>(`select * from public.create_share_link($1, '{"allow_guest_upload": true}')`, [albumId]), {
    commit: true,
  });
  return link!.link_id;
}

const guestAdds = (linkId: string, name: string, n: number, finish = true) => seedGuestItems(db, linkId, name, n, finish);

const counts = async (who: Actor, albumId: string) =>
  Object.fromEntries(
    (await db.as(who, (q) => q.query<{ link_id: string; guest_item_count: number | string }>(`select * from public.share_link_guest_counts($1)`, [albumId]))).map((r) => [
      r.link_id,
      Number(r.guest_item_count),
    ]),
  );

describe('guest items per share link', () => {
  test('owners and editors get, per link, the finished items its guests added that are not in the trash', async () => {
    const albumId = await album();
    const [party, family, quiet] = [await guestLink(albumId), await guestLink(albumId), await guestLink(albumId)];
    await guestAdds(party, 'Ana', 2);
    const ben = await guestAdds(party, 'Ben', 2);
    await guestAdds(party, 'Cy', 1, false); // still uploading: not added yet
    await guestAdds(family, 'Dee', 1);
    // A member's own upload is not a guest's.
    await db.as(owner, (q) => q.query(`select * from public.reserve_items($1, $2)`, [albumId, JSON.stringify([{ id: randomUUID(), filename: 'o.jpg', mime: 'image/jpeg', kind: 'image', bytes: 5 }])]), { commit: true });
    expect(await counts(owner, albumId)).toEqual({ [party]: 4, [family]: 1 });
    expect((await counts(owner, albumId))[quiet]).toBeUndefined();

    // An editor trashes one of Ben's photos: it no longer counts; restored, it counts again.
    await db.as(editor, (q) => q.query(`select public.trash_items($1, $2)`, [albumId, [ben[0]]]), { commit: true });
    expect(await counts(editor, albumId)).toEqual({ [party]: 3, [family]: 1 });
    await db.as(editor, (q) => q.query(`select public.restore_items($1, $2)`, [albumId, [ben[0]]]), { commit: true });
    expect(await counts(owner, albumId)).toEqual({ [party]: 4, [family]: 1 });
  });

  test('a contributor or a viewer is refused, a stranger is told there is no such album, and nobody reads another album through it', async () => {
    const albumId = await album();
    const link = await guestLink(albumId);
    await guestAdds(link, 'Ana', 1);
    expect((await errorOf(counts(contributor, albumId))).message).toBe('album/forbidden');
    expect((await errorOf(counts(viewer, albumId))).message).toBe('album/forbidden');
    expect((await errorOf(counts(stranger, albumId))).message).toBe('album/not-found');
    expect((await errorOf(counts({ id: null }, albumId))).code).toBe('42501');

    // Stan's own album says nothing of Olive's links.
    const [own] = await db.as(stranger, (q) => q.query<{ id: string }>(`select * from public.create_album('Mine')`), { commit: true });
    expect(await counts(stranger, own!.id)).toEqual({});
  });

  test('the guests\' tables stay unreadable by members: only the counts come out', async () => {
    const albumId = await album();
    await guestAdds(await guestLink(albumId), 'Ana', 1);
    for (const table of ['share_guests', 'share_guest_items']) {
      expect((await errorOf(db.as(owner, (q) => q.query(`select * from public.${table}`)))).code).toBe('42501');
    }
  });
});
