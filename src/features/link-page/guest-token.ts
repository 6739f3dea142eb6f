/**
 * A share link's guest token, kept in this browser's localStorage per link, so the guest sees and deletes
 * their own uploads for as long as the link lives. Only this browser holds it; the server keeps its hash.
 */
export interface StoredGuest {
  guest: string;
  name: string;
  albumId: string;
}

const keyOf = (linkToken: string) => `shoebox:share-guest:${linkToken}`;

export function readGuest(linkToken: string): StoredGuest | null {
  try {
    const raw = localStorage.getItem(keyOf(linkToken));
    const v = raw ? (JSON.parse(raw) as Partial<StoredGuest>) : null;
    return v && typeof v.guest === 'string' && typeof v.name === 'string' && typeof v.albumId === 'string' ? { guest: v.guest, name: v.name, albumId: v.albumId } : null;
  } catch {
    return null;
  }
}

export function writeGuest(linkToken: string, guest: StoredGuest): void {
  try {
    localStorage.setItem(keyOf(linkToken), JSON.stringify(guest));
  } catch {
    // Storage refused (private mode, full): the guest stays known for this page only.
  }
}

export function forgetGuest(linkToken: string): void {
  try {
    localStorage.removeItem(keyOf(linkToken));
  } catch {
    // Nothing to forget.
  }
}
