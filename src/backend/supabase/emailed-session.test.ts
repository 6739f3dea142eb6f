import { expect, test } from 'vitest';
import { takeEmailedSession } from './emailed-session';

function take(hash: string, pathname = '/invite/tok', search = '') {
  const replaced: string[] = [];
  const session = takeEmailedSession({ hash, pathname, search }, (url) => replaced.push(url));
  return { session, replaced };
}

test('an invitation link hands over its session and leaves the address without the tokens', () => {
  const { session, replaced } = take('#access_token=at.1&expires_in=3600&refresh_token=rt1&token_type=bearer&type=invite');
  expect(session).toEqual({ accessToken: 'at.1', refreshToken: 'rt1' });
  expect(replaced).toEqual(['/invite/tok']);
  expect(take('#access_token=a&refresh_token=r&type=magiclink', '/invite/x', '?a=1')).toEqual({ session: { accessToken: 'a', refreshToken: 'r' }, replaced: ['/invite/x?a=1'] });
});

test('other fragments are left alone, and tokens of a kind the app never mails are removed but not used', () => {
  expect(take('')).toEqual({ session: null, replaced: [] });
  expect(take('#photos')).toEqual({ session: null, replaced: [] });
  expect(take('#access_token=a&type=invite')).toEqual({ session: null, replaced: [] });
  expect(take('#access_token=a&refresh_token=r&type=recovery')).toEqual({ session: null, replaced: ['/invite/tok'] });
});

test('an expired link’s error fragment is removed and gives no session', () => {
  expect(take('#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired')).toEqual({ session: null, replaced: ['/invite/tok'] });
});
