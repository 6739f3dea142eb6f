/**
 * The account-shaped parts of a backend for someone who came by a share link — a visitor or a guest: no
 * session and no way to sign in from there, no live channel, and the capabilities that follow.
 */
import { AppError } from '../../lib/app-error';
import type { AuthPort, BackendCapabilities, DataPort, RealtimePort } from '../ports';

export const NO_ACCOUNT_CAPABILITIES: BackendCapabilities = {
  storage: { onDevice: false },
  network: { required: true },
  sharing: { members: false, links: false },
};

/** Signed out for good: every sign-in or profile change is `album/forbidden` with `refusal` as its sentence. */
export function noAccountAuth(refusal: string): AuthPort {
  const refuse = () => Promise.reject(new AppError('album/forbidden', refusal));
  return {
    capabilities: () => ({ requiresSignIn: false, methods: [], oauthProviders: [] }),
    getSession: () => Promise.resolve(null),
    checkSession: () => Promise.resolve('ended'),
    onSessionChange: (cb) => {
      cb(null);
      return () => undefined;
    },
    signInWithPassword: refuse,
    signUp: refuse,
    sendMagicLink: refuse,
    signInWithOAuth: refuse,
    signOut: () => Promise.resolve(),
    updateProfile: refuse,
  };
}

/** Nothing is heard live through a link: members' channels are private. */
export const NO_REALTIME: RealtimePort = { subscribe: () => () => undefined, broadcast: () => undefined };

/** No account, so no signed-in devices: nothing is listed, and touching or signing out changes nothing. */
export const NO_DEVICES: Pick<DataPort, 'listDevices' | 'touchDevice' | 'signOutDevice' | 'signOutOtherDevices'> = {
  listDevices: () => Promise.resolve([]),
  touchDevice: () => Promise.resolve(),
  signOutDevice: () => Promise.resolve(),
  signOutOtherDevices: () => Promise.resolve(),
};
