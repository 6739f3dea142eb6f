import { useState } from 'react';
import type { Album, ShareLink } from '../../domain/entities';
import { formatBytes, formatDateTime } from '../../lib/format';
import { Dialog } from '../../ui/dialog';
import { ErrorLine, ErrorPanel } from '../../ui/error-panel';
import { formatRelativeTime } from '../../lib/relative-time';
import { ShareLinkForm } from './share-link-form';
import { shareLinkState, viewsText } from './share-link-state';
import { useRevokeShareLink, useShareLinks } from './use-share-links';

/**
 * Public links of an album, for its owner and editors: a form for a new one (shown once, with its QR code)
 * and every link with its state, what it allows, its views and when it was last opened, each revocable.
 */
export function ShareLinksSection({ album, links }: { album: Album; links: boolean }) {
  return (
    <section className="card settings-section" aria-labelledby="settings-share-links">
      <h2 id="settings-share-links">Share links</h2>
      {links ? (
        <>
          <p className="muted">Anyone with a link sees the album without an account, as the link allows. Make one per person to revoke them apart.</p>
          {album.keepLocation && (
            <p className="notice" data-testid="share-links-previews-only">
              This album keeps location in its originals, so visitors through a link get previews only, never the originals: those
              would tell them where each photo was taken.
            </p>
          )}
          <ShareLinkForm albumId={album.id} />
          <ShareLinkList albumId={album.id} />
        </>
      ) : (
        <p className="notice" data-testid="share-links-need-supabase">
          Albums on this device cannot be shared by public link. Links need a Supabase project: the README’s section{' '}
          <q>Running on your own Supabase project</q> says how to connect one.
        </p>
      )}
    </section>
  );
}

function ShareLinkList({ albumId }: { albumId: string }) {
  const list = useShareLinks(albumId, true);
  const revoke = useRevokeShareLink(albumId);
  const [asked, setAsked] = useState<ShareLink | null>(null);
  const confirm = () => {
    if (!asked) return;
    revoke.mutate(asked.id, { onSuccess: () => setAsked(null) });
  };
  return (
    <div className="share-link-list">
      <h3>Links</h3>
      {list.isPending ? (
        <div className="skeleton" style={{ height: 40 }} aria-busy="true" aria-label="Loading share links" />
      ) : list.isError ? (
        <ErrorPanel error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="muted">No share links yet.</p>
      ) : (
        <ul className="share-link-list__rows" aria-label="Share links">
          {list.data.map((link) => (
            <ShareLinkRow key={link.id} link={link} onRevoke={() => setAsked(link)} />
          ))}
        </ul>
      )}
      <Dialog open={asked !== null} onClose={() => !revoke.isPending && setAsked(null)} title={`Revoke ${asked ? linkName(asked) : 'this link'}?`}>
        <p>Anyone who has it can no longer open the album, at once, even on a page they already have open. This cannot be undone.</p>
        {revoke.isError && <ErrorLine error={revoke.error} />}
        <div className="dialog__actions">
          <button type="button" className="btn" onClick={() => setAsked(null)} disabled={revoke.isPending}>
            Cancel
          </button>
          <button type="button" className="btn btn--destructive" onClick={confirm} disabled={revoke.isPending}>
            Revoke
          </button>
        </div>
      </Dialog>
    </div>
  );
}

function linkName(link: ShareLink): string {
  return link.label ? `“${link.label}”` : `the link made ${formatDateTime(link.createdAt)}`;
}

function ShareLinkRow({ link, onRevoke }: { link: ShareLink; onRevoke: () => void }) {
  const state = shareLinkState(link);
  return (
    <li className="share-link-row" data-link-id={link.id} data-state={state.kind}>
      <div className="member-row__text">
        <strong className="share-link-row__title">
          <span className="share-link-row__label">{link.label ?? 'Link without a label'}</span>
          <span className={`share-link-state share-link-state--${state.kind}`}>{state.text}</span>
        </strong>
        <span className="muted">
          {[
            link.hasPassword ? 'Password' : 'No password',
            link.allowDownload ? 'Downloads on' : 'Downloads off',
            guestText(link),
            viewsText(link),
          ].join(' · ')}
        </span>
        <span className="muted">
          {link.lastOpenedAt === null ? (
            'Never opened'
          ) : (
            <>
              Last opened{' '}
              <time dateTime={link.lastOpenedAt} title={formatDateTime(link.lastOpenedAt)}>
                {formatRelativeTime(link.lastOpenedAt)}
              </time>
            </>
          )}
          {' · '}Made {formatDateTime(link.createdAt)}
        </span>
      </div>
      {state.kind !== 'revoked' && (
        <button type="button" className="btn" aria-label={`Revoke ${linkName(link)}`} onClick={onRevoke}>
          Revoke
        </button>
      )}
    </li>
  );
}

function guestText(link: ShareLink): string {
  if (!link.allowGuestUpload) return 'Guest uploads off';
  const limits = [link.guestMaxFiles === null ? null : `${link.guestMaxFiles} files`, link.guestMaxBytes === null ? null : formatBytes(link.guestMaxBytes)].filter(Boolean);
  const added = link.guestItemCount === null ? '' : `, ${link.guestItemCount} added`;
  return `Guest uploads on${limits.length ? ` (${limits.join(', ')} per guest)` : ''}${added}`;
}
