import type { ErrorCode } from './app-error';
import { AppError, isAbortError } from './app-error';

export interface ErrorText {
  title: string;
  action: string;
}

/** Every error code as a sentence plus what to do (PRODUCT.md §8). The one place the UI maps codes to words. */
const TEXT: Record<ErrorCode, ErrorText> = {
  'auth/invalid-credentials': { title: 'That email and password do not match.', action: 'Check them and try again, or use a magic link.' },
  'auth/email-not-confirmed': { title: 'Your email address is not confirmed yet.', action: 'Open the link in the email we sent you.' },
  'auth/session-expired': { title: 'You have been signed out.', action: 'Sign in again to continue; nothing you were doing is lost.' },
  'album/not-found': { title: 'This album does not exist, or you do not have access to it.', action: 'Ask the owner for an invitation.' },
  'album/forbidden': { title: 'Your role in this album does not allow that.', action: 'Ask the album owner for a different role.' },
  'item/not-found': { title: 'This item is no longer here.', action: 'It may have been deleted. Go back to the album.' },
  'validation/invalid': { title: 'Some of what you typed cannot be saved.', action: 'Correct the highlighted field and try again.' },
  'upload/too-large': { title: 'This file is larger than the upload limit.', action: 'Split it or ask the owner to raise the limit.' },
  'upload/empty': { title: 'This file is empty.', action: 'Choose the file again; there is nothing in it to upload.' },
  'upload/unsupported': { title: 'This file cannot be uploaded here.', action: 'Try another file.' },
  'upload/quota-exceeded': { title: 'There is no storage space left.', action: 'Free some space or raise the quota, then retry.' },
  'upload/interrupted': { title: 'The upload was interrupted.', action: 'It will resume by itself when the connection is back.' },
  'upload/integrity': { title: 'The uploaded file did not match the original.', action: 'It is being sent again.' },
  'image/undecodable': { title: 'This image could not be opened, so it is kept as a file.', action: 'You can still download the original.' },
  'image/too-large': { title: 'This image is too large to preview, so it is kept as a file.', action: 'You can still download the original.' },
  'share/not-found': { title: 'This link does not exist.', action: 'Check the address, or ask for a new link.' },
  'share/expired': { title: 'This link has expired.', action: 'Ask the person who shared it for a new one.' },
  'share/revoked': { title: 'This link has been turned off.', action: 'Ask the person who shared it for a new one.' },
  'share/password-required': { title: 'This album is protected by a password.', action: 'Enter the password you were given.' },
  'share/wrong-password': { title: 'That password is not right.', action: 'Check it and try again.' },
  'share/rate-limited': { title: 'Too many attempts.', action: 'Wait a little and try again.' },
  'invite/not-found': { title: 'This invitation does not exist.', action: 'Check the link, or ask the album owner for a new invitation.' },
  'invite/expired': { title: 'This invitation has expired.', action: 'Ask the album owner for a new invitation.' },
  'invite/revoked': { title: 'This invitation has been withdrawn.', action: 'Ask the album owner if you should still join.' },
  'invite/used-up': { title: 'This invitation has already been used as many times as it allows.', action: 'Ask the album owner for a new invitation.' },
  'storage/cors': { title: 'The storage bucket does not allow this site.', action: 'Add the CORS rule shown below to the bucket.' },
  'storage/clock-skew': { title: "This device's clock is wrong, so storage refuses the request.", action: 'Set the date and time automatically, then retry.' },
  'storage/denied': { title: 'Storage refused the request.', action: 'Check the bucket credentials and your access to this album.' },
  'backend/unreachable': { title: 'The server cannot be reached.', action: 'Check your connection and try again.' },
  offline: { title: 'You are offline.', action: 'Work resumes by itself when you are back online.' },
};

export function errorText(code: ErrorCode): ErrorText {
  return TEXT[code];
}

/** Failures that reach a screen without an AppError (the provider's own words stay in the log). */
export const SIGN_IN_FAILED: ErrorText = {
  title: 'Signing in did not work.',
  action: 'Try again, or choose another way to sign in.',
};

/** A config.json or build setting that is wrong; the screen adds which one (the app's own words, never a server's). */
export const CONFIG_INVALID: ErrorText = {
  title: 'Shoebox is not set up correctly',
  action:
    'Fix config.json next to the app (or the VITE_SUPABASE_* settings of the build), then reload. Without any configuration, Shoebox runs on this device only.',
};

/** The fields a person types or chooses, as the form names them. */
export type Field =
  | 'title'
  | 'description'
  | 'comment'
  | 'displayName'
  | 'email'
  | 'password'
  | 'provider'
  | 'files'
  | 'items'
  | 'coverItemId'
  | 'cursor'
  // A share link's form.
  | 'label'
  | 'expiresAt'
  | 'maxViews'
  | 'guestMaxFiles'
  | 'guestMaxBytes'
  // A share link's guest.
  | 'guestName'
  | 'guest'
  | 'file';

/** What is wrong with a field. `limit` is the number the sentence quotes (characters, files, items). */
export type FieldRule = 'type' | 'empty' | 'too-short' | 'too-long' | 'out-of-range' | 'control' | 'bidi' | 'invisible' | 'invalid' | 'weak' | 'taken' | 'same' | 'too-many' | 'full' | 'not-enabled' | 'stale' | 'duplicate' | 'unknown';

export interface FieldIssue {
  field: Field;
  rule: FieldRule;
  limit?: number;
}

const NOUN: Partial<Record<Field, string>> = {
  title: 'The title',
  description: 'The description',
  comment: 'A comment',
  displayName: 'The name',
  email: 'The email address',
  password: 'The password',
  label: 'The label',
};

const count = (n: number | undefined) => (n === undefined ? 'too many' : n.toLocaleString('en'));

/** Sentences for one field (`title/empty`), or for any field with a noun (`*\/empty`). */
const FIELD_TEXT: Record<string, (noun: string, limit: number | undefined) => string> = {
  '*/type': (noun) => `${noun} must be text.`,
  '*/empty': (noun) => `${noun} cannot be empty.`,
  '*/too-long': (noun, limit) => `${noun} can be at most ${count(limit)} characters.`,
  '*/control': (noun) => `${noun} cannot contain control characters or line breaks.`,
  'description/control': (noun) => `${noun} cannot contain control characters.`,
  'comment/control': (noun) => `${noun} cannot contain control characters.`,
  '*/bidi': (noun) => `${noun} cannot contain text-direction control characters.`,
  '*/invisible': (noun) => `${noun} cannot contain invisible formatting characters.`,
  '*/invalid': (noun) => `${noun} is not valid.`,
  'password/weak': () => 'This password is too weak. Choose a longer one.',
  'password/same': () => 'The new password must differ from the old one.',
  'email/taken': () => 'An account with this email address already exists. Sign in instead.',
  'provider/not-enabled': () => 'This way of signing in is not enabled for this project.',
  'files/too-many': (_, limit) => `At most ${count(limit)} files can be added at once.`,
  'email/too-many': (_, limit) => `At most ${count(limit)} invitations by e-mail can be sent for one album in an hour. Try again later.`,
  'items/full': (_, limit) => `This album is full: it can hold ${count(limit)} items.`,
  'coverItemId/invalid': () => 'The cover must be a photo or a video of this album.',
  'cursor/stale': () => 'This list position is no longer valid. Reload the list.',
  'password/too-short': (_, limit) => `A link's password has at least ${count(limit)} characters.`,
  'password/too-long': (_, limit) => `A link's password has at most ${count(limit)} characters.`,
  'expiresAt/out-of-range': () => 'A link expires between one hour and one year from now, or never.',
  'maxViews/out-of-range': () => 'Enter a whole number of views of 1 or more, or leave it empty.',
  'guestMaxFiles/out-of-range': (_, limit) => `Enter a whole number of files from 1 to ${count(limit)}, or leave it empty.`,
  'guestMaxBytes/out-of-range': () => 'Enter a size above 0 and at most 10 TB, or leave it empty.',
  'guestName/invalid': () => 'Your name can have 1 to 60 characters, without line breaks or invisible characters.',
  'guest/unknown': () => 'This browser is no longer known as a guest of this link. Give your name again.',
  'file/duplicate': () => 'Already in the album.',
};

/** The sentence for one field's problem, or null when the catalogue has none for it. */
export function fieldText(issue: FieldIssue): string | null {
  const noun = NOUN[issue.field] ?? '';
  const make = FIELD_TEXT[`${issue.field}/${issue.rule}`] ?? (noun ? FIELD_TEXT[`*/${issue.rule}`] : undefined);
  return make ? make(noun, issue.limit) : null;
}

/** The field issue an AppError's details name, when they name one. */
export function fieldIssueOf(details: Record<string, unknown> | undefined): FieldIssue | null {
  if (!details || typeof details.field !== 'string' || typeof details.rule !== 'string') return null;
  const limit = typeof details.limit === 'number' ? details.limit : undefined;
  return { field: details.field as Field, rule: details.rule as FieldRule, ...(limit === undefined ? {} : { limit }) };
}

/** What to show for an error: the code's sentence, and for a field the catalogue's sentence about it. */
export interface ErrorDescription extends ErrorText {
  code: ErrorCode;
  /** Set for `validation/invalid` when the catalogue has a sentence for the field and rule. */
  fieldText: string | null;
}

/**
 * What to show for anything thrown; null for a cancellation, which is never shown. Only catalogue text:
 * an error's own message (an adapter's, Postgres' "Failing row contains …", a URL) is for the log, never
 * for the screen.
 */
export function describeError(e: unknown): ErrorDescription | null {
  if (isAbortError(e)) return null;
  const code: ErrorCode = e instanceof AppError ? e.code : 'backend/unreachable';
  const issue = e instanceof AppError && code === 'validation/invalid' ? fieldIssueOf(e.details) : null;
  return { ...TEXT[code], code, fieldText: issue ? fieldText(issue) : null };
}

/** A link that has been opened as many times as its owner allowed (`share/expired` with reason `view-limit`). */
export const SHARE_VIEW_LIMIT: ErrorText = {
  title: 'This link has reached its view limit.',
  action: 'Ask the person who shared it for a new one.',
};

/** How long a visitor who typed too many wrong passwords still waits, counting down. */
export function shareRetryIn(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const text = s >= 60 ? `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s` : `${s} s`;
  return s === 0 ? 'You can try again now.' : `You can try again in ${text}.`;
}

/**
 * An original whose location could not be removed, in an album that removes it (`upload/unsupported` with
 * reason `location`): what it is, and the choices left.
 */
export function locationLeftText(previewOnly: boolean): ErrorText {
  return {
    title: 'The place where this was taken could not be removed from the file, and this album removes places from originals.',
    action: previewOnly
      ? 'Upload its preview only (it carries no location), or skip it.'
      : 'It has no preview to upload instead: skip it, or add it to an album that keeps locations.',
  };
}

/** A share link's guest has added as many files or bytes as the link allows. */
export const GUEST_LIMIT_REACHED: ErrorText = {
  title: 'You have added as much as this link allows.',
  action: 'Delete some of your uploads to add others, or ask the person who shared the link.',
};
