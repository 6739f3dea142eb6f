import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useBackend } from '../../backend/backend-context';
import type { Invite, InviteRole } from '../../domain/entities';
import { ErrorLine } from '../../ui/error-panel';
import { emailIssue, sendInviteEmail, type InviteEmailInput } from './send-invite-email';

const ROLE_CHOICES: { role: InviteRole; label: string }[] = [
  { role: 'viewer', label: 'Viewer: sees, comments and gives favourites' },
  { role: 'contributor', label: 'Contributor: also adds photos and files' },
  { role: 'editor', label: 'Editor: also removes, restores and edits the description' },
];

/** The mutation behind the form, for screens that want its state. */
export function useInviteByEmail(albumId: string, onSent?: (invite: Invite) => void) {
  const backend = useBackend();
  return useMutation({
    mutationFn: (input: InviteEmailInput) => sendInviteEmail(backend, albumId, input),
    ...(onSent ? { onSuccess: onSent } : {}),
  });
}

/**
 * The owner invites someone by e-mail address (Supabase only: the project's Auth sends the mail). A failed
 * send keeps the typed address; a sent one clears it and says where it went.
 */
export function InviteByEmailForm({ albumId, onSent }: { albumId: string; onSent?: (invite: Invite) => void }) {
  const backend = useBackend();
  if (!backend.capabilities.sharing.members) {
    return <p className="muted" data-testid="invite-email-unavailable">Inviting by e-mail needs a Supabase project.</p>;
  }
  return <Form albumId={albumId} onSent={onSent} />;
}

function Form({ albumId, onSent }: { albumId: string; onSent: ((invite: Invite) => void) | undefined }) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InviteRole>('viewer');
  const [touched, setTouched] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const mutation = useInviteByEmail(albumId, onSent);
  const issue = emailIssue(email);
  const busy = mutation.isPending;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (issue || busy) return;
    setSentTo(null);
    const address = email.trim();
    mutation.mutate({ email: address, role }, {
      onSuccess: () => {
        setSentTo(address);
        setEmail('');
        setTouched(false);
      },
    });
  };

  return (
    <form className="invite-email" onSubmit={submit} noValidate aria-label="Invite by e-mail">
      <div className="field">
        <label htmlFor={`${id}-email`}>E-mail address</label>
        <input
          id={`${id}-email`}
          name="email"
          type="email"
          autoComplete="off"
          inputMode="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setSentTo(null);
          }}
          onBlur={() => email && setTouched(true)}
          aria-invalid={touched && !!issue}
          aria-describedby={touched && issue ? `${id}-email-msg` : undefined}
        />
        {touched && issue && <span id={`${id}-email-msg`} className="error-line" role="alert">{issue}</span>}
      </div>
      <div className="field">
        <label htmlFor={`${id}-role`}>Role</label>
        <select id={`${id}-role`} name="role" value={role} onChange={(e) => setRole(e.target.value as InviteRole)}>
          {ROLE_CHOICES.map((c) => <option key={c.role} value={c.role}>{c.label}</option>)}
        </select>
      </div>
      {mutation.isError && <ErrorLine error={mutation.error} />}
      {sentTo && <p className="notice" role="status">Invitation sent to {sentTo}</p>}
      <button type="submit" className="btn btn--primary" disabled={busy || (touched && !!issue)}>
        {busy ? 'Sending…' : 'Send invitation'}
      </button>
    </form>
  );
}
