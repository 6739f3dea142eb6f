import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { Invite, InviteRole } from '../../domain/entities';
import { formatDateTime } from '../../lib/format';
import { ErrorLine, ErrorPanel } from '../../ui/error-panel';
import { ROLE_HINTS, ROLE_NAMES } from '../members/role-names';
import { SharingNeedsSupabase } from '../members/sharing-needs-supabase';
import { InviteByEmailForm } from './invite-by-email-form';
import { inviteKeys } from './invite-keys';
import { InviteLink } from './invite-link';
import { useCreateInvite, usePendingInvites, useRevokeInvite } from './use-invites';

const ROLES: InviteRole[] = ['editor', 'contributor', 'viewer'];
const EXPIRY_DAYS = [1, 7, 30, 365] as const;
const EXPIRY_NAMES: Record<(typeof EXPIRY_DAYS)[number], string> = { 1: '1 day', 7: '7 days', 30: '30 days', 365: '1 year' };

/** The address a token opens: the invite page of this same app. */
export function inviteUrl(token: string): string {
  return `${location.origin}/invite/${encodeURIComponent(token)}`;
}

/** The owner's invitations: a new link (shown once, with its QR code) and the pending ones, each revocable. */
export function InvitationsSection({ albumId, sharing }: { albumId: string; sharing: boolean }) {
  return (
    <section className="card settings-section" aria-labelledby="settings-invitations">
      <h2 id="settings-invitations">Invitations</h2>
      {sharing ? (
        <>
          <CreateInviteForm albumId={albumId} />
          <InviteByEmail albumId={albumId} />
          <PendingInvites albumId={albumId} />
        </>
      ) : (
        <SharingNeedsSupabase />
      )}
    </section>
  );
}

/** A mailed invitation joins the pending list as soon as it is sent. */
function InviteByEmail({ albumId }: { albumId: string }) {
  const qc = useQueryClient();
  return <InviteByEmailForm albumId={albumId} onSent={() => void qc.invalidateQueries({ queryKey: inviteKeys.pending(albumId) })} />;
}

function CreateInviteForm({ albumId }: { albumId: string }) {
  const id = useId();
  const [role, setRole] = useState<InviteRole>('contributor');
  const [days, setDays] = useState<number>(7);
  const [maxUses, setMaxUses] = useState('');
  const create = useCreateInvite(albumId);
  const uses = maxUses.trim() === '' ? undefined : Number(maxUses);
  const usesInvalid = uses !== undefined && (!Number.isInteger(uses) || uses < 1 || uses > 2_147_483_647);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (usesInvalid || create.isPending) return;
    create.mutate({ role, expiresInDays: days, ...(uses !== undefined ? { maxUses: uses } : {}) });
  };

  return (
    <>
      <form className="invite-form" onSubmit={submit} noValidate aria-label="Invite by link">
        <div className="field">
          <label htmlFor={`${id}-role`}>Role</label>
          <select id={`${id}-role`} value={role} onChange={(e) => setRole(e.target.value as InviteRole)} aria-describedby={`${id}-role-hint`}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_NAMES[r]}
              </option>
            ))}
          </select>
          <span id={`${id}-role-hint`} className="field__hint">
            {ROLE_NAMES[role]}s may {ROLE_HINTS[role]}.
          </span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-expiry`}>Expires after</label>
          <select id={`${id}-expiry`} value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {EXPIRY_DAYS.map((d) => (
              <option key={d} value={d}>
                {EXPIRY_NAMES[d]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-uses`}>
            Number of uses <span className="muted">(optional)</span>
          </label>
          <input
            id={`${id}-uses`}
            inputMode="numeric"
            value={maxUses}
            onChange={(e) => setMaxUses(e.target.value)}
            placeholder="Unlimited"
            aria-invalid={usesInvalid}
            aria-describedby={`${id}-uses-msg`}
          />
          <span id={`${id}-uses-msg`} className={usesInvalid ? 'error-line' : 'field__hint'} role={usesInvalid ? 'alert' : undefined}>
            {usesInvalid ? 'Enter a whole number of 1 or more, or leave it empty.' : 'How many people may join with this link.'}
          </span>
        </div>
        <div className="settings-row">
          <button type="submit" className="btn btn--primary" disabled={create.isPending || usesInvalid}>
            {create.isPending ? 'Creating…' : 'Create invitation link'}
          </button>
        </div>
      </form>
      {create.isError && <ErrorLine error={create.error} />}
      {create.data && <InviteLink key={create.data.invite.id} url={inviteUrl(create.data.token)} />}
    </>
  );
}

function PendingInvites({ albumId }: { albumId: string }) {
  const invites = usePendingInvites(albumId, true);
  const revoke = useRevokeInvite(albumId);
  return (
    <div className="pending-invites">
      <h3>Pending invitations</h3>
      {invites.isPending ? (
        <div className="skeleton" style={{ height: 40 }} aria-busy="true" aria-label="Loading invitations" />
      ) : invites.isError ? (
        <ErrorPanel error={invites.error} onRetry={() => void invites.refetch()} />
      ) : invites.data.length === 0 ? (
        <p className="muted">No pending invitations.</p>
      ) : (
        <ul className="invite-list" aria-label="Pending invitations">
          {invites.data.map((inv) => (
            <li key={inv.id} className="invite-row" data-invite-id={inv.id}>
              <div className="member-row__text">
                <strong>{inv.email ? `E-mail to ${inv.email}` : 'Link'} · {ROLE_NAMES[inv.role]}</strong>
                <span className="muted">{inviteLine(inv)}</span>
              </div>
              <button
                type="button"
                className="btn"
                disabled={revoke.isPending && revoke.variables === inv.id}
                aria-label={`Revoke ${inv.email ? `the invitation to ${inv.email}` : `the ${ROLE_NAMES[inv.role].toLowerCase()} link`} made ${formatDateTime(inv.createdAt)}`}
                onClick={() => revoke.mutate(inv.id)}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {revoke.isError && <ErrorLine error={revoke.error} />}
    </div>
  );
}

function inviteLine(inv: Invite): string {
  const used = inv.maxUses === null ? `used ${inv.useCount} time${inv.useCount === 1 ? '' : 's'}` : `${inv.useCount} of ${inv.maxUses} uses`;
  return `Expires ${formatDateTime(inv.expiresAt)} · ${used}`;
}
