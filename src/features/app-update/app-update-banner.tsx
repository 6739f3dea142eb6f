/// <reference types="vite-plugin-pwa/react" />
import { useEffect, useRef, useState } from 'react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { useUploadQueue } from '../uploads/upload-engine-provider';
import { hasTypedText } from './typed-text';

const HOUR = 60 * 60_000;
const RECHECK_MS = 1000;

type Waiting = 'uploads' | 'typing' | null;

/**
 * "A new version of Shoebox is ready — Reload". The new service worker waits (src/sw.ts no longer skips
 * waiting on its own); only the person's click lets it take over, and then only once no upload is running and
 * nothing typed would be lost: until then the banner says what it waits for and updates by itself after.
 * (Files still being copied into the queue are guarded by the upload engine's leave warning.)
 */
export function AppUpdateBanner() {
  const {
    needRefresh: [needRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    // The reload is ours (below): the plugin's reloads only a page that was already controlled when it
    // registered, so a first visit that then hears of a new version would never load it.
    onNeedReload: () => undefined,
    onRegisteredSW(_url, registration) {
      // A tab left open for days still hears of a new version.
      if (registration) setInterval(() => void registration.update().catch(() => undefined), HOUR);
    },
  });
  const uploading = useUploadQueue().totals.running;
  const [requested, setRequested] = useState(false);
  const [hidden, setHidden] = useState(false);
  const [waiting, setWaiting] = useState<Waiting>(null);
  const started = useRef(false);

  useEffect(() => {
    if (!requested) return;
    const attempt = () => {
      if (started.current) return;
      if (uploading) {
        setWaiting('uploads');
        return;
      }
      if (hasTypedText(document)) {
        setWaiting('typing');
        return;
      }
      started.current = true;
      setWaiting(null);
      // The waiting worker is told to skip waiting; the page reloads once that worker controls it.
      navigator.serviceWorker?.addEventListener('controllerchange', () => window.location.reload(), { once: true });
      void updateServiceWorker(true);
    };
    attempt();
    const timer = setInterval(attempt, RECHECK_MS);
    return () => clearInterval(timer);
  }, [requested, uploading, updateServiceWorker]);

  if (!needRefresh || (hidden && !requested)) return null;
  return (
    <div className="app-update" role="region" aria-label="Update">
      <p className="app-update__text">A new version of Shoebox is ready.</p>
      {!requested ? (
        <>
          <button type="button" className="btn btn--primary" onClick={() => setRequested(true)}>
            Reload
          </button>
          <button type="button" className="btn" onClick={() => setHidden(true)}>
            Not now
          </button>
        </>
      ) : (
        <p className="app-update__status" role="status">
          {waiting === 'uploads'
            ? 'It will load when your uploads finish.'
            : waiting === 'typing'
              ? 'It will load once what you are typing is sent or cleared.'
              : 'Loading the new version…'}
        </p>
      )}
    </div>
  );
}
