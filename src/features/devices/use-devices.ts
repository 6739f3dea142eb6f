import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useBackend } from '../../backend/backend-context';
import { deviceKeys } from './device-keys';
import { sessionSeen, signingOutOnPurpose } from './session-end';

export function useDevices() {
  const { data } = useBackend();
  return useQuery({ queryKey: deviceKeys.list(), queryFn: ({ signal }) => data.listDevices({ signal }) });
}

/** One other device, or every other one (`'others'`). */
export function useSignOutDevice() {
  const { data } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (which: string) => (which === 'others' ? data.signOutOtherDevices() : data.signOutDevice(which)),
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
