import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { ShareFailure } from '../../lib/share-inbox-url';

/** True once a service worker is active for this page (it then receives the next share itself). */
function useWorkerReady(): boolean {
  const [ready, setReady] = useState(() => typeof navigator !== 'undefined' && !!navigator.serviceWorker?.controller);
  useEffect(() => {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
    let live = true;
    void navigator.serviceWorker.ready.then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, []);
  return ready;
}

const FAILED: Record<ShareFailure, string> = {
  quota: 'There was no room on this device to keep the shared files. Free some space, then share them again.',
  storage: 'Shoebox could not keep the shared files on this device. Share them again.',
};

/**
 * A share that never reached the inbox: it arrived before the service worker was in control (the host sent
 * it here), or the device could not store it. Either way the user shares again, now that Shoebox is ready.
 */
export function ShareNotReceived({ reason }: { reason: 'missed' | ShareFailure }) {
  const ready = useWorkerReady();
  return (
    <div className="empty share-target__missed" data-testid="share-not-received">
      <h2>These files did not arrive</h2>
      <p>{reason === 'missed' ? 'Shoebox was still getting ready and didn’t receive these files. Share them again.' : FAILED[reason]}</p>
      <p role="status" className="muted">
        {ready ? 'Shoebox is ready to receive shares now.' : 'Getting ready…'}
      </p>
      <Link className="btn" to="/">
        Open your albums
      </Link>
    </div>
  );
}
