/**
 * AuthPort over GoTrue (supabase-js auth): email + password, magic link, the OAuth providers the project
 * enables, refresh (supabase-js refreshes the token itself), sign-out here, elsewhere or everywhere. The
 * profile comes from `profiles`, made on first sign-in when missing.
 */
import { isAuthSessionMissingError, type Session as GoTrueSession, type SupabaseClient, type User } from '@supabase/supabase-js';
import { abortErrorOf, AppError, throwIfAborted } from '../../lib/app-error';
import { displayName as displayNameSchema, INVISIBLE_FORMAT, parseField } from '../../lib/validation';
import { limits } from '../../config';
import type { AuthCapabilities, AuthPort, CallOptions, Session, SessionCheck, SignInMethod, Unsubscribe } from '../ports';
import type { Profile } from '../../domain/entities';
import { authError, postgrestError, type PostgrestFailure } from './supabase-errors';
import type { SupabaseFetch } from './supabase-fetch';
import { isUnreadableRow, toProfile } from './supabase-rows';
import { sameProfile, type KeptProfile } from './kept-profile';
import { log } from '../../lib/log';

const FALLBACK_NAME = 'Shoebox user';

/** Controls: never part of a display name (invisible format characters neither, INVISIBLE_FORMAT). */
function isRefused(c: string): boolean {
  const code = c.codePointAt(0) ?? 0;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/** The name a new profile starts with: the one given at sign-up or by the provider, else the email's local part. */
export function initialDisplayName(user: Pick<User, 'email' | 'user_metadata'>): string {
  const meta = (user.user_metadata ?? {}) as Record<string, unknown>;
  const candidates = [meta.display_name, meta.full_name, meta.name, meta.user_name, user.email?.split('@')[0]];
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue;
    // Drop what the rules refuse rather than refusing the sign-in: controls, bidi overrides, excess length.
    const cleaned = [...candidate]
      .map((c) => (isRefused(c) ? ' ' : INVISIBLE_FORMAT.test(c) ? '' : c))
      .join('')
      .trim();
    const short = [...cleaned].slice(0, limits().displayNameMax).join('').trim();
    if (short) return short;
  }
  return FALLBACK_NAME;
}

interface PgResult {
  data: unknown;
  error: PostgrestFailure | null;
  status: number;
}

export class SupabaseAuth implements AuthPort {
  /** Profiles by user id, loaded once per sign-in. */
  private readonly profiles = new Map<string, Promise<Profile>>();
  private readonly listeners = new Set<(session: Session | null) => void>();
  private stopWatching: (() => void) | null = null;
  /** Bumped on every change told to listeners, so a late first answer never overwrites a newer one. */
  private version = 0;

  constructor(
    private readonly client: SupabaseClient,
    private readonly http: SupabaseFetch,
    private readonly oauthProviders: readonly string[],
    /** A session being adopted from an e-mailed link: the first answers wait for it. */
    private readonly adopting: Promise<unknown> | null = null,
    /** The last profile read, where sessions are kept across starts: see [Note: The profile kept on the device]. */
    private readonly kept: KeptProfile | null = null,
  ) {}

  capabilities(): AuthCapabilities {
    const methods: SignInMethod[] = ['password', 'magic-link'];
    if (this.oauthProviders.length > 0) methods.push('oauth');
    return { requiresSignIn: true, methods, oauthProviders: [...this.oauthProviders] };
  }

  async getSession(opts: CallOptions = {}): Promise<Session | null> {
    throwIfAborted(opts.signal);
    if (this.adopting) await this.adopting;
    const { data, error } = await this.client.auth.getSession();
    if (opts.signal?.aborted) throw abortErrorOf(opts.signal);
    if (error) throw this.authFailure(error);
    return data.session ? this.toSession(data.session) : null;
  }

  /**
   * [Note: A session signed out elsewhere]
   * Signing a device out from another (or "all other devices") deletes its session on GoTrue, but the access
   * token it holds is a signed JWT that PostgREST and Storage accept until it expires, up to an hour later.
   * GoTrue's `GET /user` does look the token's `session_id` up, and answers 403 `session_not_found` when it is
   * gone; supabase-js's `getUser()` then drops the stored session itself and tells its watchers SIGNED_OUT.
   * Only that answer ends the session here: a failed request (offline, 5xx, a refused refresh that may be
   * retried) is `unknown`, so no one is ever signed out by a bad network.
   */
  async checkSession(opts: CallOptions = {}): Promise<SessionCheck> {
    throwIfAborted(opts.signal);
    if (this.adopting) await this.adopting;
    const { data, error } = await this.client.auth.getUser();
    if (opts.signal?.aborted) throw abortErrorOf(opts.signal);
    if (data.user) return 'live';
    if (error && isAuthSessionMissingError(error)) {
      this.forgetProfiles();
      return 'ended';
    }
    return 'unknown';
  }

  onSessionChange(cb: (session: Session | null) => void): Unsubscribe {
    this.listeners.add(cb);
    this.watch();
    let active = true;
    const seen = this.version;
    this.getSession().then(
      (session) => active && this.version === seen && cb(session),
      (e: unknown) => active && this.version === seen && (log.error(e), cb(null)),
    );
    return () => {
      active = false;
      this.listeners.delete(cb);
      if (this.listeners.size === 0) {
        this.stopWatching?.();
        this.stopWatching = null;
      }
    };
  }

  async signInWithPassword(email: string, password: string): Promise<Session> {
    const { data, error } = await this.client.auth.signInWithPassword({ email: email.trim(), password });
    if (error) throw this.authFailure(error);
    if (!data.session) throw new AppError('auth/email-not-confirmed', 'Confirm your email address first: follow the link in the message we sent you.');
    return this.toSession(data.session);
  }

  async signUp(email: string, password: string, displayName: string): Promise<Session | null> {
    const name = parseField(displayNameSchema, displayName, 'displayName');
    const { data, error } = await this.client.auth.signUp({ email: email.trim(), password, options: { data: { display_name: name } } });
    if (error) throw this.authFailure(error);
    // No session: the project asks for the email to be confirmed first.
    return data.session ? this.toSession(data.session) : null;
  }

  async sendMagicLink(email: string, redirectTo: string): Promise<void> {
    const { error } = await this.client.auth.signInWithOtp({ email: email.trim(), options: { emailRedirectTo: redirectTo, shouldCreateUser: true } });
    if (error) throw this.authFailure(error);
  }

  async signInWithOAuth(provider: string, redirectTo: string): Promise<void> {
    if (!this.oauthProviders.includes(provider)) {
      throw new AppError('validation/invalid', `Sign-in with ${provider} is not enabled for this project.`, { details: { field: 'provider', rule: 'not-enabled' } });
    }
    const { error } = await this.client.auth.signInWithOAuth({ provider: provider as never, options: { redirectTo } });
    if (error) throw this.authFailure(error);
  }

  async signOut(scope: 'local' | 'others' | 'global' = 'local'): Promise<void> {
    const { error } = await this.client.auth.signOut({ scope });
    if (error) throw this.authFailure(error);
    if (scope !== 'others') this.forgetProfiles();
  }

  async updateProfile(patch: { displayName?: string }): Promise<Profile> {
    const name = patch.displayName === undefined ? undefined : parseField(displayNameSchema, patch.displayName, 'displayName');
    const session = await this.getSession();
    if (!session) throw new AppError('auth/session-expired', 'Your session has expired. Sign in again.');
    if (name === undefined) return session.profile;
    const result = (await this.client
      .from('profiles')
      .update({ display_name: name })
      .eq('id', session.userId)
      .select('*')
      .single()) as unknown as PgResult;
    if (result.error) throw this.dataFailure(result);
    const profile = toProfile(result.data);
    this.profiles.set(profile.id, Promise.resolve(profile));
    this.kept?.write(profile);
    await this.notify();
    return profile;
  }

  // ---------------------------------------------------------------------------------------------------------

  private authFailure(error: unknown): AppError {
    const status = (error as { status?: unknown }).status;
    const retryAfterMs = status === 429 ? this.http.retryAfterMs() : undefined;
    return authError(error, retryAfterMs === undefined ? {} : { retryAfterMs });
  }

  private dataFailure(result: PgResult): AppError {
    const retryAfterMs = result.status === 429 ? this.http.retryAfterMs() : undefined;
    return postgrestError(result.error ?? {}, result.status, retryAfterMs === undefined ? {} : { retryAfterMs });
  }

  private watch(): void {
    if (this.stopWatching) return;
    const { data } = this.client.auth.onAuthStateChange((event, session) => {
      // Each new watcher gets the current session on its own; the first event repeats it.
      if (event === 'INITIAL_SESSION') return;
      if (!session) this.forgetProfiles();
      // supabase-js holds its auth lock while calling back: reading the profile must wait until it is released.
      setTimeout(() => void this.notify(session), 0);
    });
    this.stopWatching = () => data.subscription.unsubscribe();
  }

  private async notify(known?: GoTrueSession | null): Promise<void> {
    const version = ++this.version;
    let session: Session | null;
    try {
      session = known === undefined ? await this.getSession() : known ? await this.toSession(known) : null;
    } catch (e) {
      log.error(e);
      return;
    }
    if (version !== this.version) return;
    for (const cb of [...this.listeners]) {
      try {
        cb(session);
      } catch (e) {
        log.error(e);
      }
    }
  }

  private forgetProfiles(): void {
    this.profiles.clear();
    this.kept?.clear();
  }

  private async toSession(session: GoTrueSession): Promise<Session> {
    const loading = this.profileOf(session.user);
    // Once read, the kept profile is the one just read; before, it stands in while the read goes on.
    const kept = this.kept?.read(session.user.id);
    const profile = kept ?? await loading.catch((e: unknown) => {
      // Opened offline with a stored session: the app (and its upload queue) must start all the same. The
      // name from the account stands in for the profile until it can be read; it is not kept, so it is read next time.
      // A profile the server sent but the app cannot read is not a network failure: that still fails.
      if (!(e instanceof AppError) || (e.code !== 'offline' && e.code !== 'backend/unreachable') || isUnreadableRow(e)) throw e;
      const stand: Profile = { id: session.user.id, displayName: initialDisplayName(session.user), avatarKey: null, createdAt: session.user.created_at };
      return stand;
    });
    return {
      userId: session.user.id,
      email: session.user.email ?? null,
      profile,
      expiresAt: typeof session.expires_at === 'number' ? session.expires_at * 1000 : null,
    };
  }

  private profileOf(user: User): Promise<Profile> {
    let loading = this.profiles.get(user.id);
    if (!loading) {
      const before = this.kept?.read(user.id) ?? null;
      const started = this.loadProfile(user);
      loading = started;
      this.profiles.set(user.id, started);
      started.then(
        (profile) => {
          // Signed out (or renamed here) while it was read: what it read is not to be kept.
          if (this.profiles.get(user.id) !== started) return;
          this.kept?.write(profile);
          if (before && !sameProfile(before, profile)) void this.notify();
        },
        () => {
          if (this.profiles.get(user.id) === started) this.profiles.delete(user.id);
        },
      );
    }
    return loading;
  }

  private async loadProfile(user: User): Promise<Profile> {
    const read = async () => {
      const result = (await this.client.from('profiles').select('*').eq('id', user.id).maybeSingle()) as unknown as PgResult;
      if (result.error) throw this.dataFailure(result);
      return result.data ? toProfile(result.data) : null;
    };
    const existing = await read();
    if (existing) return existing;
    const created = (await this.client
      .from('profiles')
      .insert({ id: user.id, display_name: initialDisplayName(user) })
      .select('*')
      .single()) as unknown as PgResult;
    if (!created.error) return toProfile(created.data);
    // Another tab made it first: theirs is the profile.
    if (created.error.code === '23505') {
      const again = await read();
      if (again) return again;
    }
    throw this.dataFailure(created);
  }
}
