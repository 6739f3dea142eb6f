import { useState } from 'react';
import type { Album, Member, Role } from '../../domain/entities';
import { formatDateTime } from '../../lib/format';
import { Dialog } from '../../ui/dialog';
import { ErrorLine, ErrorPanel } from '../../ui/error-panel';
import { Menu, MenuItem } from '../../ui/menu';
import { albumAbilities, settingsSections } from '../../lib/album-permissions';
import { LeaveAlbumDialog } from './leave-album-dialog';
import { MemberAvatar } from './member-avatar';
import { ROLE_NAMES } from './role-names';
import { SharingNeedsSupabase } from './sharing-needs-supabase';
import { useMembers } from '../../shared/use-members';
import { useRemoveMember, useSetMemberRole, useTransferOwnership } from './use-member-actions';

const ASSIGNABLE: Exclude<Role, 'owner'>[] = ['editor', 'contributor', 'viewer'];

type Pending = { kind: 'remove' | 'transfer'; member: Member } | null;

/**
 * Who is in the album. Everyone sees the list and may leave (but the owner); the owner changes roles, removes
 * members and hands the album over, each asked again before it happens except a role change.
 */
export function MembersSection({ album, me, sharing, onLeft }: { album: Album; me: string; sharing: boolean; onLeft: () => void }) {
  const members = useMembers(album.id);
  const abilities = albumAbilities(album.role);
  const sections = settingsSections(album.role);
  const setRole = useSetMemberRole(album.id);
  const remove = useRemoveMember(album.id);
  const transfer = useTransferOwnership(album.id);
  const [pending, setPending] = useState<Pending>(null);
  const [leaving, setLeaving] = useState(false);
  const manage = abilities.manageMembers && sharing;

  const ask = (next: Pending) => {
    remove.reset();
    transfer.reset();
    setPending(next);
  };
  const confirm = () => {
    if (!pending) return;
    const action = pending.kind === 'remove' ? remove : transfer;
    action.mutate(pending.member.userId, { onSuccess: () => setPending(null) });
  };
  const confirmError = pending?.kind === 'remove' ? remove.error : pending?.kind === 'transfer' ? transfer.error : null;
  const confirmBusy = remove.isPending || transfer.isPending;

  return (
    <section className="card settings-section" aria-labelledby="settings-members">
      <h2 id="settings-members">Members</h2>
      {!sharing && <SharingNeedsSupabase />}
      {members.isPending ? (
        <div className="skeleton" style={{ height: 56 }} aria-busy="true" aria-label="Loading members" />
      ) : members.isError ? (
        <ErrorPanel error={members.error} onRetry={() => void members.refetch()} />
      ) : (
        <ul className="member-list" aria-label="Members">
          {members.data.map((m) => (
            <li key={m.userId} className="member-row" data-user-id={m.userId}>
              <MemberAvatar name={m.displayName} avatarKey={m.avatarKey} />
              <div className="member-row__text">
                <strong>
                  {m.displayName || 'Someone'}
                  {m.userId === me && <span className="muted"> (you)</span>}
                </strong>
                <span className="muted">{addedLine(m)}</span>
              </div>
              <span className="member-row__role">{ROLE_NAMES[m.role]}</span>
              {manage && m.userId !== me && m.role !== 'owner' && (
                <Menu
                  trigger={
                    <button type="button" className="btn btn--ghost" aria-label={`Change ${m.displayName || 'member'}`} disabled={setRole.isPending}>
                      Change
                    </button>
                  }
                >
                  {ASSIGNABLE.filter((r) => r !== m.role).map((r) => (
                    <MenuItem key={r} onSelect={() => setRole.mutate({ userId: m.userId, role: r })}>
                      Make {ROLE_NAMES[r].toLowerCase()}
                    </MenuItem>
                  ))}
                  {abilities.transferOwnership && <MenuItem onSelect={() => ask({ kind: 'transfer', member: m })}>Make owner…</MenuItem>}
                  <MenuItem onSelect={() => ask({ kind: 'remove', member: m })}>Remove from album…</MenuItem>
                </Menu>
              )}
            </li>
          ))}
        </ul>
      )}
      {setRole.isError && <ErrorLine error={setRole.error} />}

      {sections.leave ? (
        <div className="settings-row">
          <button type="button" className="btn btn--danger" onClick={() => setLeaving(true)}>
            Leave album
          </button>
        </div>
      ) : (
        album.role === 'owner' && sharing && (
          <p className="muted">You own this album, so you cannot leave it. To leave, first make another member the owner.</p>
        )
      )}
      <LeaveAlbumDialog album={album} open={leaving} onClose={() => setLeaving(false)} onLeft={onLeft} />

      <Dialog
        open={pending !== null}
        onClose={() => !confirmBusy && setPending(null)}
        title={pending?.kind === 'transfer' ? `Make ${pending.member.displayName || 'this member'} the owner?` : `Remove ${pending?.member.displayName || 'this member'}?`}
      >
        {pending?.kind === 'transfer' ? (
          <p>
            {pending.member.displayName || 'They'} will own “{album.title}”: they alone can delete it, manage its members and invite people.
            You will stay in the album as an editor.
          </p>
        ) : (
          <p>
            {pending?.member.displayName || 'They'} will no longer see “{album.title}”. What they added stays in the album.
          </p>
        )}
        {confirmError && <ErrorLine error={confirmError} />}
        <div className="dialog__actions">
          <button type="button" className="btn" onClick={() => setPending(null)} disabled={confirmBusy}>
            Cancel
          </button>
          <button type="button" className="btn btn--destructive" onClick={confirm} disabled={confirmBusy}>
            {pending?.kind === 'transfer' ? 'Make owner' : 'Remove'}
          </button>
        </div>
      </Dialog>
    </section>
  );
}

function addedLine(m: Member): string {
  const when = formatDateTime(m.createdAt);
  if (m.role === 'owner' && (m.addedBy === null || m.addedBy === m.userId)) return `Since ${when}`;
  if (m.addedBy === m.userId) return `Joined ${when}`;
  return `Added by ${m.addedByName ?? 'a former member'} · ${when}`;
}
