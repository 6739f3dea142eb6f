/** AuthPort of the local backend: one built-in profile, no accounts, nothing to sign in to. */
import { AppError } from '../../lib/app-error';
import type { AuthCapabilities, AuthPort, Session, SessionCheck, Unsubscribe } from '../ports';
import type { Profile } from '../../domain/entities';
import type { LocalDb } from './local-db';
import { guard } from './local-errors';
import type { LocalRealtime } from './local-realtime';
import { log } from '../../lib/log';

// The text rules (and zod) load with the first write that checks text: starting never needs them.
const validation = () => import('../../lib/validation');

const PROFILE_KEY = 'profile';
export const DEFAULT_DISPLAY_NAME = 'You';

/** The local profile, made on first use. Safe when several tabs start at once: the first write wins. */
export async function loadLocalProfile(db: LocalDb): Promise<Profile> {
  const idb = await db.get();
  const existing = await idb.get('meta', PROFILE_KEY);
  if (existing) return existing;
  const tx = idb.transaction('meta', 'readwrite');
  let profile = await tx.store.get(PROFILE_KEY);
  if (!profile) {
    profile = { id: crypto.randomUUID(), displayName: DEFAULT_DISPLAY_NAME, avatarKey: null, createdAt: new Date().toISOString() };
    await tx.store.put(profile, PROFILE_KEY);
  }
  await tx.done;
  return profile;
}

function noAccounts(): AppError {
  return new AppError(
    'backend/unreachable',
    'Shoebox is keeping everything on this device, so there is no account to sign in to. Connect a Supabase project to share albums with others.',
    { retryable: false },
  );
}

export class LocalAuth implements AuthPort {
  private cached: Promise<Profile> | null = null;
  private readonly listeners = new Set<(session: Session | null) => void>();

  constructor(
    private readonly db: LocalDb,
    private readonly realtime: LocalRealtime,
  ) {
    realtime.onProfileChange(() => {
      this.cached = null;
      void this.notify();
    });
  }

  /** The profile every local write is made by. */
  profile(): Promise<Profile> {
    if (!this.cached) {
      const loading = loadLocalProfile(this.db);
      loading.catch(() => {
        if (this.cached === loading) this.cached = null;
      });
      this.cached = loading;
    }
    return this.cached;
  }

  capabilities(): AuthCapabilities {
    return { requiresSignIn: false, methods: [], oauthProviders: [] };
  }

  getSession(opts: { signal?: AbortSignal } = {}): Promise<Session | null> {
    return guard(opts.signal, async () => toSession(await this.profile()));
  }

  /** The local profile cannot be signed out from elsewhere. */
  checkSession(opts: { signal?: AbortSignal } = {}): Promise<SessionCheck> {
    return guard(opts.signal, () => Promise.resolve<SessionCheck>('live'));
  }

  onSessionChange(cb: (session: Session | null) => void): Unsubscribe {
    this.listeners.add(cb);
    let active = true;
    this.getSession().then(
      (session) => active && cb(session),
      (e: unknown) => log.error(e),
    );
    return () => {
      active = false;
      this.listeners.delete(cb);
    };
  }

  signInWithPassword(): Promise<Session> {
    return Promise.reject(noAccounts());
  }

  signUp(): Promise<Session | null> {
    return Promise.reject(noAccounts());
  }

  sendMagicLink(): Promise<void> {
    return Promise.reject(noAccounts());
  }

  signInWithOAuth(): Promise<void> {
    return Promise.reject(noAccounts());
  }

  /** There is nothing to sign out of: the local profile stays. */
  async signOut(): Promise<void> {}

  updateProfile(patch: { displayName?: string }): Promise<Profile> {
    return guard(undefined, async () => {
      const { displayName, parseField } = await validation();
      const name = patch.displayName === undefined ? undefined : parseField(displayName, patch.displayName, 'displayName');
      await this.profile();
      const idb = await this.db.get();
      const tx = idb.transaction('meta', 'readwrite');
      const current = await tx.store.get(PROFILE_KEY);
      if (!current) throw new AppError('backend/unreachable', 'The local profile is missing. Reload the page.');
      const next: Profile = { ...current, ...(name === undefined ? {} : { displayName: name }) };
      await tx.store.put(next, PROFILE_KEY);
      await tx.done;
      this.cached = Promise.resolve(next);
      this.realtime.profileChanged();
      await this.notify();
      return next;
    });
  }

  private async notify(): Promise<void> {
    if (this.listeners.size === 0) return;
    const session = await this.getSession();
    for (const cb of this.listeners) cb(session);
  }
}

function toSession(profile: Profile): Session {
  return { userId: profile.id, email: null, profile, expiresAt: null };
}
