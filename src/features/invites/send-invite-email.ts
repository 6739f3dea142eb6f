/**
 * Inviting someone by e-mail address on Supabase: the invite-email Edge Function makes the invitation as the
 * owner and has the project's Auth mail the link (supabase/functions/invite-email). The token never comes
 * back here; only the person who receives the mail holds it.
 */
import type { Backend, CallOptions } from '../../backend/ports';
import type { Invite, InviteRole } from '../../domain/entities';
import { AppError } from '../../lib/app-error';

export interface InviteEmailInput {
  email: string;
  role: InviteRole;
  /** Default 7; at most 365. */
  expiresInDays?: number;
}

// The rule the server and the invites table apply.
const EMAIL = /^[^@\s]+@[^@\s]+$/;
export const EMAIL_MAX = 320;

/** Why `text` is not an address to invite, or null when it is. */
export function emailIssue(text: string): string | null {
  const address = text.trim();
  if (!address) return 'Enter an e-mail address.';
  if (address.length > EMAIL_MAX) return `An e-mail address has at most ${EMAIL_MAX} characters.`;
  if (!EMAIL.test(address) || !/\.[^.@\s]+$/.test(address)) return 'This is not an e-mail address.';
  return null;
}

const ROLES: readonly string[] = ['editor', 'contributor', 'viewer'];

function isInvite(v: unknown): v is Invite {
  const i = v as Record<string, unknown> | null;
  return !!i && typeof i.id === 'string' && typeof i.albumId === 'string' && ROLES.includes(i.role as string)
    && (i.email === null || typeof i.email === 'string') && typeof i.expiresAt === 'string'
    && (i.maxUses === null || typeof i.maxUses === 'number') && typeof i.useCount === 'number'
    && (i.createdBy === null || typeof i.createdBy === 'string') && typeof i.createdAt === 'string'
    && (i.revokedAt === null || typeof i.revokedAt === 'string');
}

/** Sends the invitation; resolves with it as the pending list shows it. The link leads back to this app. */
export async function sendInviteEmail(backend: Backend, albumId: string, input: InviteEmailInput, opts: CallOptions = {}): Promise<Invite> {
  const answer = await backend.functions.invoke<{ invite?: unknown }>('invite-email', {
    albumId,
    email: input.email.trim(),
    role: input.role,
    ...(input.expiresInDays === undefined ? {} : { expiresInDays: input.expiresInDays }),
    redirectOrigin: window.location.origin,
  }, opts);
  if (!isInvite(answer?.invite)) throw new AppError('backend/unreachable', 'invite-email answered without a readable invitation.');
  return answer.invite;
}
