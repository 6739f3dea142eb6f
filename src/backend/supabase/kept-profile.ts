/**
 * [Note: The profile kept on the device]
 * A session is only whole with its profile, and reading `profiles` is one round trip on every start, before
 * anything else can show: on a phone's network, about a fifth of an installed app's start. The last profile
 * read is kept in the browser's storage beside supabase-js's own session, for the one person signed in. A
 * start with a kept profile for the same account uses it at once and reads the row behind it; a different
 * name or picture then reaches the screen as a session change. It is dropped at every sign-out, and replaced
 * when someone else signs in. A first sign-in (nothing kept) still waits for the row, which it may have to make.
 */
import type { Profile } from '../../domain/entities';

const KEY = 'shoebox.profile';

/** The part of the Web Storage API used: localStorage in the app, a map in tests. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface KeptProfile {
  /** The profile kept for `userId`, or null: nothing kept, someone else's, or unreadable. */
  read(userId: string): Profile | null;
  write(profile: Profile): void;
  clear(): void;
}

function isProfile(value: unknown): value is Profile {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  return typeof p.id === 'string' && typeof p.displayName === 'string' && (p.avatarKey === null || typeof p.avatarKey === 'string') && typeof p.createdAt === 'string';
}

/** A profile kept in `storage`; storage that throws (blocked, full) keeps nothing and fails nothing. */
export function keptProfileIn(storage: KeyValueStorage): KeptProfile {
  const attempt = <T,>(fn: () => T, otherwise: T): T => {
    try {
      return fn();
    } catch {
      return otherwise;
    }
  };
  return {
    read(userId) {
      return attempt(() => {
        const raw = storage.getItem(KEY);
        const value: unknown = raw === null ? null : JSON.parse(raw);
        return isProfile(value) && value.id === userId ? { id: value.id, displayName: value.displayName, avatarKey: value.avatarKey, createdAt: value.createdAt } : null;
      }, null);
    },
    write(profile) {
      attempt(() => storage.setItem(KEY, JSON.stringify(profile)), undefined);
    },
    clear() {
      attempt(() => storage.removeItem(KEY), undefined);
    },
  };
}

export function sameProfile(a: Profile, b: Profile): boolean {
  return a.id === b.id && a.displayName === b.displayName && a.avatarKey === b.avatarKey && a.createdAt === b.createdAt;
}
