import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useBackend, useSession } from '../../backend/backend-context';
import { log } from '../../lib/log';
import { deviceKeys } from './device-keys';
import { sessionEnded, sessionSeen } from './session-end';
import { thisDevice } from './this-device';

/** The devices row is brought up to date at start (and at each sign-in), then at most once an hour. */
export const TOUCH_EVERY_MS = 60 * 60 * 1000;

/**
 * Keeps this browser's row in the devices list while someone is signed in, and notes when the session goes
 * away without this browser signing out (for the sign-in screen's notice). Renders nothing.
 */
export function DeviceHeartbeat() {
  const { data, auth } = useBackend();
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
    if (!userId) return;
    const controller = new AbortController();
    let last = 0;
    const touch = async () => {
      last = Date.now();
      try {
        await data.touchDevice(await thisDevice(), { signal: controller.signal });
        void qc.invalidateQueries({ queryKey: deviceKeys.list() });
      } catch (e) {
        // The list is a convenience: a failed touch is tried again at the next hour or return to the app.
        if (!controller.signal.aborted) log.warn(e);
      }
    };
    void touch();
    const timer = setInterval(() => void touch(), TOUCH_EVERY_MS);
    // Timers sleep with a backgrounded tab or a suspended phone: coming back counts as the hour's touch.
    const onVisible = () => document.visibilityState === 'visible' && Date.now() - last >= TOUCH_EVERY_MS && void touch();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      controller.abort();
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [userId, data, qc]);

  return null;
}
