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
  'storage/cors': { title: 'The storage bucket does not allow this site.', action: 'Add the CORS rule shown below to the bucket.' },
  'storage/clock-skew': { title: "This device's clock is wrong, so storage refuses the request.", action: 'Set the date and time automatically, then retry.' },
  'storage/denied': { title: 'Storage refused the request.', action: 'Check the bucket credentials and your access to this album.' },
  'backend/unreachable': { title: 'The server cannot be reached.', action: 'Check your connection and try again.' },
  offline: { title: 'You are offline.', action: 'Work resumes by itself when you are back online.' },
};

export function errorText(code: ErrorCode): ErrorText {
  return TEXT[code];
}

/** What to show for anything thrown; null for a cancellation, which is never shown. */
export function describeError(e: unknown): (ErrorText & { code: ErrorCode; detail: string }) | null {
  if (isAbortError(e)) return null;
  const err = e instanceof AppError ? e : new AppError('backend/unreachable', e instanceof Error ? e.message : String(e));
  const text = TEXT[err.code];
  return { ...text, code: err.code, detail: err.message };
}
