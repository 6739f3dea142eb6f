/** Where the manifest's `share_target` posts, and the page it leads to (shared by the worker and the page). */
export const SHARE_TARGET_PATH = '/share-target';

/** Why a share did not reach the inbox: no room on the device, or another storage failure. */
export type ShareFailure = 'quota' | 'storage';

export type ShareTargetState =
  | { inbox: string }
  /** The POST reached the host, not the worker (it was not in control yet): the files were not received. */
  | { missed: true }
  | { failed: ShareFailure };

export function shareTargetUrl(state: ShareTargetState): string {
  const q = new URLSearchParams();
  if ('inbox' in state) q.set('inbox', state.inbox);
  else if ('missed' in state) q.set('missed', '1');
  else q.set('failed', state.failed);
  return `${SHARE_TARGET_PATH}?${q.toString()}`;
}

export function readShareTargetState(search: URLSearchParams): ShareTargetState | null {
  const inbox = search.get('inbox');
  if (inbox) return { inbox };
  if (search.get('missed') === '1') return { missed: true };
  const failed = search.get('failed');
  if (failed === 'quota' || failed === 'storage') return { failed };
  return null;
}
