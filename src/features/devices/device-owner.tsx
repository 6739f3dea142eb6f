import { useEffect, useReducer, type ReactNode } from 'react';
import { useBackend, useSession } from '../../backend/backend-context';
import type { AuthPort, SessionCheck } from '../../backend/ports';
import { log } from '../../lib/log';

// Needed only when a session ends (or an older version's queue is moved): the first screen does without it.
const deviceData = () => import('./forget-device-data');

// [Note: What the device keeps belongs to one account]
// On a backend with accounts, everything Shoebox keeps in this browser is the signed-in person's, and goes when
// their session ends, so that the next person on the same browser finds nothing of theirs: the query cache
// (query-persistence.ts, which PersistedQueries empties itself), the thumbnails and previews the service worker
// caches, the upload queue, the sidecar writes still owed (sidecar-outbox.ts), and the shares that reached the
// inbox while they were signed in.
// - The account these belong to (the device's owner) is recorded in localStorage. Each session change is held
//   against it here, the one place that sees every way a session ends: signed out here, signed out from
//   another device (DeviceHeartbeat's check, or a refused refresh at start), or someone else signing in.
// - A session read as missing has not always ended: opened offline with an expired token, supabase-js cannot
//   refresh it, and it comes back once online. So a missing session ends the owner's only when the backend
//   says so (`checkSession` is 'ended'); until then their things stay, behind the sign-in screen. Someone
//   else signing in ends it for sure: that person's screens wait until the owner's things are deleted.
// - Each account's upload queue is a database of its own (accountUploadDb), so another person's engine never
//   opens it, even before it is deleted. Its engine stops first (UploadEngineProvider is keyed by account),
//   which stops the uploads under way; what they reserved on the server expires there (PRODUCT.md §9).
// - Files shared while nobody is signed in are for whoever signs in next; those that came until the session
//   ended go with it. The moment it ended is recorded with the owner, so that a deletion cut short (a page
//   closed at once) is finished at the next start without touching what was shared since.
// - Thumbnails: the worker is asked to empty its cache, so that answers its fetches still wait for are not kept,
//   and the page empties it as well, for when no worker (or an older one) runs.
// - The queue an older version kept in the device's database (before each account had its own) is moved into
//   the queue of the person whose session the page started with, if no owner is recorded yet: the one signed
//   in when the app was updated. Otherwise it is deleted with the next owner's things.

const OWNER_KEY = 'shoebox.device-owner';

interface Owner {
  userId: string;
  /** When their session was seen to end (ISO time), while their things are being deleted. */
  endedAt?: string;
}

/** Past this, a session read as missing is taken for unknown (a slow network), and nothing is deleted yet. */
const CHECK_MS = 10_000;

/** Where storage is refused, the owner is known for this page only. */
let memoryOwner: Owner | null = null;
/** The session this page started with (undefined until the first render). */
let startedWith: string | null | undefined;
/** Settlements run one at a time, in the order of the session changes. */
let settling: Promise<void> = Promise.resolve();

function isOwner(v: unknown): v is Owner {
  const o = v as Partial<Owner> | null;
  return typeof o === 'object' && o !== null && typeof o.userId === 'string' && (o.endedAt === undefined || typeof o.endedAt === 'string');
}

function readOwner(): Owner | null {
  try {
    const raw = localStorage.getItem(OWNER_KEY);
    const value: unknown = raw === null ? null : JSON.parse(raw);
    return isOwner(value) ? value : null;
  } catch {
    return memoryOwner;
  }
}

function writeOwner(owner: Owner | null): void {
  memoryOwner = owner;
  try {
    if (owner) localStorage.setItem(OWNER_KEY, JSON.stringify(owner));
    else localStorage.removeItem(OWNER_KEY);
  } catch {
    // Kept in memory only.
  }
}

async function settle(auth: AuthPort, userId: string | null): Promise<void> {
  const owner = readOwner();
  if (owner === null) {
    if (userId === null) return;
    if (userId === startedWith) {
      await deviceData()
        .then((d) => d.adoptDeviceQueue(userId))
        .catch((e: unknown) => log.warn('The upload queue of an older version could not be moved', e));
    }
    writeOwner({ userId });
    return;
  }
  if (owner.userId === userId) {
    // Signed in again before the last deletion was finished: theirs to keep.
    if (owner.endedAt !== undefined) writeOwner({ userId });
    return;
  }
  if (userId === null && owner.endedAt === undefined) {
    const unknown = new Promise<SessionCheck>((resolve) => setTimeout(resolve, CHECK_MS, 'unknown'));
    const check = await Promise.race([auth.checkSession().catch((): SessionCheck => 'unknown'), unknown]);
    if (check !== 'ended') return;
  }
  const endedAt = owner.endedAt ?? new Date().toISOString();
  writeOwner({ ...owner, endedAt });
  try {
    await (await deviceData()).forgetDeviceData(owner.userId, endedAt);
  } catch (e) {
    log.warn('What the last account kept on this device could not all be deleted', e);
    // Tried again at the next start; but someone signed in now does not wait for it.
    if (userId === null) return;
  }
  // Unless another tab has recorded someone since (signed in while this one was deleting).
  if (readOwner()?.userId === owner.userId) writeOwner(userId === null ? null : { userId });
}

/** Holds the session `userId` against the device's owner: see [Note: What the device keeps belongs to one account]. */
function settleDeviceOwner(auth: AuthPort, userId: string | null): Promise<void> {
  const next = settling.then(() => settle(auth, userId));
  settling = next.catch(() => undefined);
  return next;
}

/**
 * Deletes what the last account kept in this browser when its session ends, and shows the screens of someone
 * who signs in only once what the last person kept is gone. Renders its children (nothing else).
 */
export function DeviceOwner({ children }: { children: ReactNode }) {
  const { auth } = useBackend();
  const accounts = auth.capabilities().requiresSignIn;
  const userId = useSession()?.userId ?? null;
  if (startedWith === undefined) startedWith = userId;
  const [, settled] = useReducer((n: number) => n + 1, 0);

  useEffect(() => {
    if (!accounts) return;
    let live = true;
    settleDeviceOwner(auth, userId)
      .catch((e: unknown) => log.warn(e))
      .finally(() => live && settled());
    return () => {
      live = false;
    };
  }, [accounts, auth, userId]);

  const waiting = accounts && userId !== null && readOwner()?.userId !== userId;
  return waiting ? null : children;
}
