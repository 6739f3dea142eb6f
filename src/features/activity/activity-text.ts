import type { ItemKind } from '../../domain/entities';
import type { ActivityEntry } from './group-activity';

/** A piece of an entry's sentence: plain text, or a link to what it names. */
export type ActivityPart = string | { text: string; href: string };

/** What the feed calls a person whose name the caller can no longer see. */
export const FORMER_MEMBER = 'Someone who left';

const NOUNS: Record<ItemKind, [string, string, string]> = {
  image: ['a photo', 'photo', 'photos'],
  video: ['a video', 'video', 'videos'],
  file: ['a file', 'file', 'files'],
};
const ITEM: [string, string, string] = ['an item', 'item', 'items'];

/** "a photo", "3 videos", "2 items" (kinds mixed or not known). */
function things(n: number, kinds: (ItemKind | null)[]): string {
  const first = kinds[0];
  const [one, , many] = first && kinds.every((k) => k === first) ? NOUNS[first] : ITEM;
  return n === 1 ? one : `${n.toLocaleString()} ${many}`;
}

const items = (n: number) => (n === 1 ? 'an item' : `${n.toLocaleString()} items`);

export const albumHref = (albumId: string) => `/albums/${albumId}`;
export const itemHref = (albumId: string, itemId: string) => `/albums/${albumId}/items/${itemId}`;

/** Who did it, as the feed names them ("Someone left Lisbon" rather than "Someone who left left Lisbon"). */
export function actorLabel(entry: Pick<ActivityEntry, 'actorName' | 'verb'>): string {
  if (entry.actorName) return entry.actorName;
  return entry.verb === 'left' ? 'Someone' : FORMER_MEMBER;
}

/**
 * The sentence after the person's name, its links included: "added 12 items to [Lisbon]", "commented on
 * [a photo] in [Lisbon]". Every part is text: names and titles are never read as markup.
 */
export function activityParts(e: ActivityEntry): ActivityPart[] {
  const album = { text: e.albumTitle, href: albumHref(e.albumId) };
  const members = e.subjects.length || 1;
  switch (e.verb) {
    case 'added_items':
      // Each line knows whether all it added was of one kind: "12 photos", else "12 items".
      return [`added ${things(e.count, e.subjects.length ? e.subjects.map((s) => s.kind) : [null])} to `, album];
    case 'created_album':
      return ['created ', album];
    case 'commented': {
      const [only] = e.subjects;
      if (e.subjects.length === 1 && only) return ['commented on ', { text: things(1, [only.kind]), href: itemHref(e.albumId, only.id) }, ' in ', album];
      return [`commented on ${things(Math.max(1, e.subjects.length), e.subjects.map((s) => s.kind))} in `, album];
    }
    case 'joined':
      return ['joined ', album];
    case 'trashed_items':
      return [`moved ${items(e.count)} to the trash in `, album];
    case 'restored_items':
      return [`restored ${items(e.count)} in `, album];
    case 'left':
      return ['left ', album];
    case 'removed_member':
      return [members === 1 ? 'removed a member from ' : `removed ${members} members from `, album];
    case 'changed_role':
      return [members === 1 ? 'changed a member’s role in ' : `changed ${members} members’ roles in `, album];
    case 'transferred_ownership':
      return ['handed over ', album];
  }
}

/** The whole sentence as plain text (for tests and for screen readers' summaries). */
export function activitySentence(e: ActivityEntry): string {
  return `${actorLabel(e)} ${activityParts(e).map((p) => (typeof p === 'string' ? p : p.text)).join('')}`;
}
