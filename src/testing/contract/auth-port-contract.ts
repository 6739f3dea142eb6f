/**
 * The AuthPort contract, for a backend that is signed in (or needs no sign-in): the session is there and
 * watchable, the profile can be renamed within the rules, and sign-in methods it does not offer refuse.
 */
import { describe, expect, it } from 'vitest';
import { limits } from '../../config';
import type { Backend, Session } from '../../backend/ports';
import { expectAppError, waitFor } from './contract-fixtures';

export function describeAuthPortContract(name: string, makeBackend: () => Promise<Backend> | Backend): void {
  describe(`AuthPort contract: ${name}`, () => {
    it('has a session with a profile', async () => {
      const b = await makeBackend();
      const caps = b.auth.capabilities();
      for (const method of caps.methods) expect(['password', 'magic-link', 'oauth']).toContain(method);
      if (caps.oauthProviders.length > 0) expect(caps.methods).toContain('oauth');
      const session = await b.auth.getSession();
      expect(session).not.toBeNull();
      expect(session!.userId).toBe(session!.profile.id);
      expect(session!.profile.displayName.length).toBeGreaterThan(0);
      expect(Number.isNaN(Date.parse(session!.profile.createdAt))).toBe(false);
      expect((await b.auth.getSession())!.userId).toBe(session!.userId);
    });

    it('tells a watcher the current session at once, then every change, until it stops watching', async () => {
      const b = await makeBackend();
      const seen: (Session | null)[] = [];
      const stop = b.auth.onSessionChange((s) => seen.push(s));
      const first = await waitFor(() => seen[0], 1000, 'the current session');
      expect(first?.userId).toBe((await b.auth.getSession())!.userId);

      await b.auth.updateProfile({ displayName: 'Watcher Test' });
      await waitFor(() => seen.find((s) => s?.profile.displayName === 'Watcher Test'), 2000, 'the renamed profile');
      stop();
      const count = seen.length;
      // Another watcher, still watching, is told of the next change: the one that stopped would have been too.
      const still: (Session | null)[] = [];
      const stopStill = b.auth.onSessionChange((s) => still.push(s));
      await b.auth.updateProfile({ displayName: 'Unwatched' });
      await waitFor(() => still.find((s) => s?.profile.displayName === 'Unwatched'), 2000, 'the change told to a watcher');
      stopStill();
      expect(seen.length).toBe(count);
    });

    it('renames the profile, trimmed, and keeps it', async () => {
      const b = await makeBackend();
      const profile = await b.auth.updateProfile({ displayName: '  Ada Lovelace ' });
      expect(profile.displayName).toBe('Ada Lovelace');
      expect((await b.auth.getSession())!.profile.displayName).toBe('Ada Lovelace');
    });

    it('refuses display names that break the rules and keeps the old one', async () => {
      const b = await makeBackend();
      await b.auth.updateProfile({ displayName: 'Kept Name' });
      for (const displayName of ['', '   ', 'x'.repeat(limits().displayNameMax + 1), 'tab\tname', 'a\u202Eb']) {
        const e = await expectAppError(b.auth.updateProfile({ displayName }), 'validation/invalid');
        expect(e.details).toMatchObject({ field: 'displayName' });
      }
      expect((await b.auth.getSession())!.profile.displayName).toBe('Kept Name');
    });

    it('refuses a wrong password, or password sign-in altogether when it offers none', async () => {
      const b = await makeBackend();
      const offersPassword = b.auth.capabilities().methods.includes('password');
      const e = await expectAppError(
        b.auth.signInWithPassword('nobody@example.com', 'not the password'),
        offersPassword ? 'auth/invalid-credentials' : 'backend/unreachable',
      );
      expect(e.message.length).toBeGreaterThan(0);
      expect((await b.auth.getSession())?.userId).toBeTruthy();
    });
  });
}
