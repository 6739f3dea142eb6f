import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useBackend, useSession } from '../../backend/backend-context';
import { log } from '../../lib/log';
import { deviceKeys } from './device-keys';
import { sessionEnded, sessionSeen } from './session-end';

// Labelling this browser takes the user agent's parser, which the first screen does without: it loads here.
const thisDevice = () => import('./this-device').then((m) => m.thisDevice());

/** The devices row is brought up to date at start (and at each sign-in), then at most once an hour. */
export const TOUCH_EVERY_MS = 60 * 60 * 1000;
/** Coming back to the app asks whether its session still stands, at most this often. */
export const CHECK_EVERY_MS = 3 * 60 * 1000;

/**
 * Keeps this browser's row in the devices list while someone is signed in, and learns promptly when another
 * device signed this one out: at start, on each return to the app (at most every few minutes) and with the
 * hourly touch, the server is asked whether the session still stands (see [Note: A session signed out
 * elsewhere]). Notes when the session goes away without this browser signing out, for the sign-in screen's
 * notice. Renders nothing. A backend without accounts has only this device, which no other can list: the
 * devices list records it itself when shown (useDevices).
 */
export function DeviceHeartbeat() {
  const { auth, devices } = useBackend();
  const session = useSession();
  const qc = useQueryClient();
  const userId = session?.userId ?? null;
  const accounts = auth.capabilities().requiresSignIn;

  useEffect(() => {
    if (!accounts) return;
    if (userId) sessionSeen();
    else sessionEnded();
  }, [userId, accounts]);

  useEffect(() => {
    if (!userId || !accounts) return;
    const controller = new AbortController();
    const { signal } = controller;
    let lastTouch = 0;
    let lastCheck = 0;
    let touching = false;
    /** Ended: the backend has signed this browser out, and the session change takes it to the sign-in screen. */
    const stillSignedIn = async () => {
      lastCheck = Date.now();
      try {
        return (await auth.checkSession({ signal })) !== 'ended';
      } catch (e) {
        if (!signal.aborted) log.warn(e);
        return true;
      }
    };
    const touch = async () => {
      if (touching) return;
      touching = true;
      lastTouch = Date.now();
      try {
        await devices.touchDevice(await thisDevice(), { signal });
        void qc.invalidateQueries({ queryKey: deviceKeys.list() });
      } catch (e) {
        // The list is a convenience: a failed touch is tried again at the next hour or return to the app.
        if (!signal.aborted) log.warn(e);
      } finally {
        touching = false;
      }
    };
    // A touch still on its way (a slow network) never holds back a check that is due: only touches wait
    // for one another. Checks are spaced by lastCheck, and asking twice at once is harmless.
    const beat = async (withTouch: boolean) => {
      if ((await stillSignedIn()) && withTouch && !signal.aborted) await touch();
    };
    void beat(true);
    const timer = setInterval(() => void beat(true), TOUCH_EVERY_MS);
    // Timers sleep with a backgrounded tab or a suspended phone: coming back counts as the hour's touch, and
    // is when someone looks at the app again, so when a sign-out from elsewhere matters.
    const onVisible = () => {
      if (document.visibilityState !== 'visible') return;
      const now = Date.now();
      if (now - lastTouch >= TOUCH_EVERY_MS) void beat(true);
      else if (now - lastCheck >= CHECK_EVERY_MS) void beat(false);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      controller.abort();
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [userId, accounts, devices, auth, qc]);

  return null;
}
