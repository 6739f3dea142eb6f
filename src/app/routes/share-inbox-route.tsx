import { useSearchParams } from 'react-router';
import { ShareInbox } from '../../features/share-inbox/share-inbox';
import { ShareNotReceived } from '../../features/share-inbox/share-not-received';
import { readShareTargetState } from '../../lib/share-inbox-url';
import { useWaitingShares, WaitingSharesList } from '../../features/share-inbox/waiting-shares';

/** Where files shared from another app land (the manifest's share_target, through the service worker). */
export function ShareTargetRoute() {
  const [params] = useSearchParams();
  const state = readShareTargetState(params);
  const waiting = useWaitingShares();
  return (
    <div className="page share-target">
      <div className="page-header">
        <div className="page-header__text">
          <h1>Shared with Shoebox</h1>
          {state !== null && 'inbox' in state && <p className="muted">Choose the album these files go to. They upload like files you add yourself.</p>}
        </div>
      </div>
      {state === null && waiting === null ? (
        <div className="card" aria-busy="true" aria-label="Loading the shared files" />
      ) : state === null && waiting !== null && waiting.length > 0 ? (
        <WaitingSharesList shares={waiting} />
      ) : state === null ? (
        <div className="empty">
          <h2>Nothing was shared</h2>
          <p>Share photos, videos or files to Shoebox from another app, and they appear here.</p>
        </div>
      ) : 'inbox' in state ? (
        <ShareInbox key={state.inbox} id={state.inbox} />
      ) : (
        <ShareNotReceived reason={'missed' in state ? 'missed' : state.failed} />
      )}
    </div>
  );
}
