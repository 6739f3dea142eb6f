import { useId, useState } from 'react';
import { useBackend } from '../../backend/backend-context';
import type { Device } from '../../domain/entities';
import { formatCount, formatDateTime } from '../../lib/format';
import { Dialog } from '../../ui/dialog';
import { ErrorLine, ErrorPanel } from '../../ui/error-panel';
import { isFinished } from '../../upload/upload-task';
import { formatRelativeTime } from '../../lib/relative-time';
import { useUploadQueue } from '../uploads/upload-engine-provider';
import { useDevices, useSignOutDevice, useSignOutHere } from './use-devices';

const KIND_TEXT: Record<Device['kind'], string> = { desktop: 'Computer', mobile: 'Phone', tablet: 'Tablet' };

/**
 * The browsers signed in to this account, this one first: what each is, whether it runs as the installed app
 * and when it was last seen, each other one signed out on its own or all at once. On a backend without
 * sign-in there is one device, this one, and nothing to sign out. Signing out here deletes the uploads not
 * finished (see [Note: What the device keeps belongs to one account]): with some in the queue, it asks first.
 */
export function DevicesSection() {
  const id = useId();
  const { auth } = useBackend();
  const accounts = auth.capabilities().requiresSignIn;
  const list = useDevices();
  const signOut = useSignOutDevice();
  const here = useSignOutHere();
  const [asked, setAsked] = useState<Device | 'others' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const unfinished = useUploadQueue().tasks.filter((t) => !isFinished(t.state)).length;
  const [leaving, setLeaving] = useState<'local' | 'global' | null>(null);
  const signOutHere = (scope: 'local' | 'global') => (unfinished > 0 ? setLeaving(scope) : here.mutate(scope));

  const devices = list.data ? [...list.data].sort((a, b) => Number(b.current) - Number(a.current)) : [];
  const others = devices.filter((d) => !d.current);
  const confirm = () => {
    if (!asked) return;
    const what = asked === 'others' ? 'Your other devices have been signed out.' : `${asked.label} has been signed out.`;
    signOut.mutate(asked === 'others' ? 'others' : asked.id, {
      onSuccess: () => {
        setAsked(null);
        setDone(what);
      },
    });
  };

  return (
    <section className="card devices" aria-labelledby={`${id}-devices`}>
      <h2 id={`${id}-devices`}>{accounts ? 'Signed-in devices' : 'This device'}</h2>
      {list.isPending ? (
        <div className="skeleton" style={{ height: 48 }} aria-busy="true" aria-label="Loading devices" />
      ) : list.isError ? (
        <ErrorPanel error={list.error} onRetry={() => void list.refetch()} />
      ) : devices.length === 0 ? (
        <p className="muted">No device is recorded yet.</p>
      ) : (
        <ul className="devices__list" aria-label={accounts ? 'Signed-in devices' : 'This device'}>
          {devices.map((d) => (
            <DeviceRow
              key={d.id}
              device={d}
              onSignOut={accounts ? () => (d.current ? signOutHere('local') : (setDone(null), setAsked(d))) : null}
              busy={here.isPending || signOut.isPending}
            />
          ))}
        </ul>
      )}
      {accounts && (
        <div className="devices__actions">
          {others.length > 0 && (
            <button type="button" className="btn" onClick={() => (setDone(null), setAsked('others'))} disabled={signOut.isPending}>
              Sign out of all other devices
            </button>
          )}
          <button type="button" className="btn btn--danger" onClick={() => signOutHere('global')} disabled={here.isPending}>
            Sign out everywhere
          </button>
        </div>
      )}
      {here.isError && <ErrorLine error={here.error} />}
      {done && <p role="status">{done}</p>}
      <Dialog open={leaving !== null} onClose={() => setLeaving(null)} title="Sign out before your uploads finish?">
        <p>
          {formatCount(unfinished, 'file has', 'files have')} not finished uploading. Signing out stops{' '}
          {unfinished === 1 ? 'it and removes it' : 'them and removes them'} from this browser: add {unfinished === 1 ? 'it' : 'them'} again after
          you sign in.
        </p>
        <div className="dialog__actions">
          <button type="button" className="btn" onClick={() => setLeaving(null)}>
            Keep uploading
          </button>
          <button type="button" className="btn btn--destructive" onClick={() => (leaving && here.mutate(leaving), setLeaving(null))}>
            Sign out
          </button>
        </div>
      </Dialog>
      <Dialog
        open={asked !== null}
        onClose={() => !signOut.isPending && setAsked(null)}
        title={asked === 'others' ? 'Sign out of all other devices?' : `Sign out ${asked?.label ?? 'this device'}?`}
      >
        <p>
          {asked === 'others' ? 'Every other browser signed in to this account' : 'That browser'} will have to sign in again; nothing in your
          albums is removed. A page already open there signs out when it is next opened or brought back to the screen.
        </p>
        {signOut.isError && <ErrorLine error={signOut.error} />}
        <div className="dialog__actions">
          <button type="button" className="btn" onClick={() => setAsked(null)} disabled={signOut.isPending}>
            Cancel
          </button>
          <button type="button" className="btn btn--destructive" onClick={confirm} disabled={signOut.isPending}>
            Sign out
          </button>
        </div>
      </Dialog>
    </section>
  );
}

function DeviceRow({ device, onSignOut, busy }: { device: Device; onSignOut: (() => void) | null; busy: boolean }) {
  return (
    <li className="devices__row" data-device-id={device.id} data-current={device.current || undefined}>
      <div className="member-row__text">
        <strong>
          <span className="devices__label">{device.label}</span>
          {device.current && <span className="devices__this"> · This device</span>}
        </strong>
        <span className="muted">
          {[KIND_TEXT[device.kind], device.installed ? 'Installed app' : 'In the browser'].join(' · ')}
          {' · '}
          {device.current ? (
            'Active now'
          ) : (
            <>
              Last seen{' '}
              <time dateTime={device.lastSeenAt} title={formatDateTime(device.lastSeenAt)}>
                {formatRelativeTime(device.lastSeenAt)}
              </time>
            </>
          )}
        </span>
      </div>
      {onSignOut && (
        <button type="button" className="btn" aria-label={`Sign out ${device.current ? 'this device' : device.label}`} onClick={onSignOut} disabled={busy}>
          Sign out
        </button>
      )}
    </li>
  );
}
