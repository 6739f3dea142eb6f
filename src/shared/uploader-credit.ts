import { createContext, useContext } from 'react';
import type { Item, Member } from '../domain/entities';

/** What an item's credit says of someone who added it and is no longer a member. */
export const FORMER_UPLOADER = 'Someone who left';

/**
 * Who added the item, as its credit names them, from the album's member list; undefined while the list is
 * not known. Guest uploads through a share link are named by their guest label ("Ana (guest)"), before the lookup.
 */
export function uploaderName(item: Pick<Item, 'uploaderId' | 'guestLabel'>, members: readonly Member[] | undefined): string | undefined {
  if (item.guestLabel) return guestCredit(item.guestLabel);
  if (!members) return undefined;
  return members.find((m) => m.userId === item.uploaderId)?.displayName || FORMER_UPLOADER;
}

/**
 * The open album's members, for the tiles: the album screen reads the list once and each tile looks its
 * uploader up here, so a page of tiles makes no request of its own.
 */
export const AlbumMembersContext = createContext<readonly Member[] | undefined>(undefined);

/** How a guest of a share link is credited, here and in the activity (where the database words it the same). */
export function guestCredit(label: string): string {
  return `${label} (guest)`;
}

export function useUploaderName(item: Pick<Item, 'uploaderId' | 'guestLabel'>): string | undefined {
  return uploaderName(item, useContext(AlbumMembersContext));
}
