import type { ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useBackend, useSession } from '../../backend/backend-context';
import type { InvitePreview } from '../../domain/entities';
import { useObjectUrls } from '../../shared/files/use-object-urls';
import { useAcceptInvite, useInvitePreview } from '../../features/invites/use-invites';
import { thumbhashDataUrl } from '../../ui/thumbhash-image';
import { SharingNeedsSupabase } from '../../features/members/sharing-needs-supabase';
import { ErrorLine, ErrorPanel } from '../../ui/error-panel';
import { Icon } from '../../ui/icon';

/**
 * `/invite/:token`: who invites you to which album, then Join. A signed-out visitor is asked to sign in (or
 * create an account) and comes back here; a token that no longer works says why (invite/* codes).
 */
export function InviteRoute() {
  const { token = '' } = useParams();
  const backend = useBackend();
  const session = useSession();
  const here = `/invite/${encodeURIComponent(token)}`;

  if (!backend.capabilities.sharing.members) {
    return (
      <InvitePage>
        <h1>Invitations need a Supabase project</h1>
        <SharingNeedsSupabase />
        <HomeLink />
      </InvitePage>
    );
  }
  if (backend.auth.capabilities().requiresSignIn && !session) {
    return (
      <InvitePage>
        <h1>You are invited to an album</h1>
        <p>Sign in, or create an account, to see the album and join it.</p>
        <Link className="btn btn--primary" to={`/sign-in?next=${encodeURIComponent(here)}`}>
          Sign in to join
        </Link>
      </InvitePage>
    );
  }
  return <SignedInInvite token={token} />;
}

function SignedInInvite({ token }: { token: string }) {
  const preview = useInvitePreview(token, true);
  const accept = useAcceptInvite();
  const navigate = useNavigate();
  if (preview.isPending) {
    return (
      <InvitePage busy>
        <div className="skeleton invite-card__cover" />
        <div className="skeleton" style={{ height: 24, marginTop: 16 }} />
      </InvitePage>
    );
  }
  if (preview.isError) {
    return (
      <InvitePage>
        <h1>This invitation cannot be used</h1>
        <ErrorPanel error={preview.error} />
        <HomeLink />
      </InvitePage>
    );
  }
  const join = () => accept.mutate(token, { onSuccess: (albumId) => void navigate(`/albums/${albumId}`, { replace: true }) });
  return (
    <InvitePage>
      <InviteCover preview={preview.data} />
      <h1>
        {preview.data.inviterName || 'Someone'} invited you to “{preview.data.albumTitle}”
      </h1>
      <p className="muted">Join to see its photos and files, and to add yours if your role allows it.</p>
      {accept.isError && <ErrorLine error={accept.error} />}
      <div className="settings-row">
        <button type="button" className="btn btn--primary" onClick={join} disabled={accept.isPending}>
          {accept.isPending ? 'Joining…' : 'Join album'}
        </button>
        <Link className="btn btn--ghost" to="/">
          Not now
        </Link>
      </div>
    </InvitePage>
  );
}

/**
 * The cover, when this visitor may read it yet; else its blurred placeholder (the bucket serves thumbnails to
 * members only); else a neutral picture.
 */
function InviteCover({ preview }: { preview: InvitePreview }) {
  const urls = useObjectUrls([preview.coverThumbKey]);
  const url = (preview.coverThumbKey ? urls.data?.get(preview.coverThumbKey) : undefined) ?? (preview.coverThumbhash ? thumbhashDataUrl(preview.coverThumbhash) : null);
  return url ? (
    <img className="invite-card__cover" src={url} alt="" />
  ) : (
    <div className="invite-card__cover invite-card__cover--blank" aria-hidden="true">
      <Icon name="image" size={40} />
    </div>
  );
}

function InvitePage({ children, busy }: { children: ReactNode; busy?: boolean }) {
  return (
    <main className="page page--center invite-page">
      <p className="invite-page__brand">
        <img src="/icon.svg" alt="" width={24} height={24} /> Shoebox
      </p>
      <div className="card invite-card" aria-busy={busy || undefined}>
        {children}
      </div>
    </main>
  );
}

function HomeLink() {
  return (
    <Link className="btn" to="/">
      Go to your albums
    </Link>
  );
}
