import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { formatBytes, formatCount, formatDateTime } from '../../lib/format';
import { UploadStore, type InboxShare } from '../../upload/upload-store';
import { SHARE_TARGET_PATH, shareTargetUrl } from '../../lib/share-inbox-url';

/** A share in the inbox, as much as a list needs (the files stay on disk). */
export interface WaitingShare {
  id: string;
  createdAt: string;
  count: number;
  bytes: number;
}

function summary(share: InboxShare): WaitingShare {
  return { id: share.id, createdAt: share.createdAt, count: share.files.length, bytes: share.files.reduce((n, f) => n + f.size, 0) };
}

/**
 * The shares waiting for an album, read again at each change of screen; null until read. A share outlives
 * the page that showed it (a sign-in, a closed app), so the app points back to it from anywhere.
 */
export function useWaitingShares(): WaitingShare[] | null {
  const { pathname, search } = useLocation();
  const [shares, setShares] = useState<WaitingShare[] | null>(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      const store = await UploadStore.open();
      try {
        const all = await store.listShares();
        if (live) setShares(all.map(summary));
      } finally {
        store.close();
      }
    })().catch(() => live && setShares([]));
    return () => {
      live = false;
    };
  }, [pathname, search]);
  return shares;
}

const describe = (s: WaitingShare) => `${formatCount(s.count, 'file', 'files')} · ${formatBytes(s.bytes)}`;

/** The waiting shares, each a link to choose its album (on /share-target when nothing names a share). */
export function WaitingSharesList({ shares }: { shares: readonly WaitingShare[] }) {
  return (
    <section className="card" aria-labelledby="waiting-shares-heading">
      <h2 id="waiting-shares-heading">Waiting for an album</h2>
      <ul className="waiting-shares">
        {shares.map((s) => (
          <li key={s.id}>
            <Link to={shareTargetUrl({ inbox: s.id })}>{describe(s)}</Link> <span className="muted">shared {formatDateTime(s.createdAt)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A line above every screen but the share's own while shared files wait for an album. */
export function WaitingSharesNotice() {
  const shares = useWaitingShares();
  const { pathname } = useLocation();
  const files = (shares ?? []).reduce((n, s) => n + s.count, 0);
  // A share of text alone has no file to upload: its page says so when opened, it is no reason to nag.
  if (!shares || files === 0 || pathname === SHARE_TARGET_PATH) return null;
  const only = shares.length === 1 ? shares[0] : undefined;
  return (
    <p className="waiting-shares-notice" role="status">
      {formatCount(files, 'shared file is', 'shared files are')} waiting for an album.{' '}
      <Link to={only ? shareTargetUrl({ inbox: only.id }) : SHARE_TARGET_PATH}>Choose an album</Link>
    </p>
  );
}
