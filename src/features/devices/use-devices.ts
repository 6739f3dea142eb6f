import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useBackend } from '../../backend/backend-context';
import { deviceKeys } from './device-keys';
import { sessionSeen, signingOutOnPurpose } from './session-end';
import { thisDevice } from './this-device';

/**
 * The devices of the account. Without accounts the one device is this browser, recorded as it is listed (no
 * heartbeat keeps it, see DeviceHeartbeat): the list is then this page's own, and it is seen now.
 */
export function useDevices() {
  const { auth, devices } = useBackend();
  const accounts = auth.capabilities().requiresSignIn;
  return useQuery({
    queryKey: deviceKeys.list(),
    queryFn: async ({ signal }) => {
      if (!accounts) await devices.touchDevice(await thisDevice(), { signal });
      return devices.listDevices({ signal });
    },
  });
}

/** One other device, or every other one (`'others'`). */
export function useSignOutDevice() {
  const { devices } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (which: string) => (which === 'others' ? devices.signOutOtherDevices() : devices.signOutDevice(which)),
    onSettled: () => qc.invalidateQueries({ queryKey: deviceKeys.list() }),
  });
}

/** This browser: only here (`local`) or every session of the account, this one included (`global`). */
export function useSignOutHere() {
  const { auth } = useBackend();
  return useMutation({
    mutationFn: async (scope: 'local' | 'global') => {
      signingOutOnPurpose();
      await auth.signOut(scope);
    },
    // Still signed in here: a later sign-out from elsewhere earns its notice again.
    onError: () => sessionSeen(),
  });
}
