/**
 * Where to go after signing in, from a `?next=` that anyone can put in a link: only a path of this app
 * survives, anything else becomes `/`.
 *
 * Browsers and URL parsers read many spellings as "another site": `//host`, `/\host` (a backslash is a
 * slash to the WHATWG parser), tabs and newlines inside (`/\t/host`; the parser drops them), leading spaces,
 * schemes (`https:`, `javascript:`), and the same again percent-encoded for whatever decodes it later. So the
 * raw text may hold only the characters of a URL path, query and fragment, and neither it nor any of its
 * decodings may start with two slashes or hold a backslash, a space or a control character.
 */
const PATH_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?#%]*$/;
// Whitespace, controls, backslashes and their full-width look-alikes, once decoded.
const UNSAFE_DECODED = /[\s\p{Cc}\p{Cf}\\\uff0f\uff3c]/u;
const BASE = 'http://next.invalid';

function offSite(path: string): boolean {
  return !path.startsWith('/') || path.startsWith('//') || UNSAFE_DECODED.test(path);
}

export function safeNext(next: string | null): string {
  if (!next || !PATH_CHARS.test(next) || offSite(next)) return '/';
  let decoded = next;
  for (let i = 0; i < 4; i++) {
    let once: string;
    try {
      once = decodeURIComponent(decoded);
    } catch {
      return '/';
    }
    if (once === decoded) break;
    if (offSite(once)) return '/';
    decoded = once;
  }
  if (decoded.includes('%')) return '/'; // still encoded after four rounds: not a path this app makes
  try {
    return new URL(next, BASE).origin === BASE ? next : '/';
  } catch {
    return '/';
  }
}
