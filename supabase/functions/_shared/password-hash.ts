/**
 * Share link passwords: PBKDF2-SHA-256 with WebCrypto, 600,000 iterations (OWASP's figure for PBKDF2-SHA-256),
 * a 16-byte random salt per link, stored as `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`. The
 * iteration count travels with the hash, so links made today still verify if the count is raised later.
 */
export const ITERATIONS = 600_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;
const FORMAT = /^pbkdf2-sha256\$(\d{1,7})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Whether a password is one a link may have: 8 to 128 characters (code points). */
export function isAcceptablePassword(value: unknown): value is string {
  if (typeof value !== 'string' || !value.isWellFormed()) return false;
  const length = [...value].length;
  return length >= PASSWORD_MIN && length <= PASSWORD_MAX;
}

export async function hashPassword(password: string, iterations = ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, iterations);
  return `pbkdf2-sha256$${iterations}$${toBase64(salt)}$${toBase64(hash)}`;
}

/** Whether `password` matches the stored hash; the comparison takes the same time wherever the bytes differ. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = FORMAT.exec(stored);
  if (!m) return false;
  const iterations = Number(m[1]);
  if (iterations < 1) return false;
  const expected = fromBase64(m[3]!);
  const actual = await derive(password, fromBase64(m[2]!), iterations, expected.length * 8 || HASH_BITS);
  return constantTimeEqual(actual, expected);
}

export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a[i % (a.length || 1)] ?? 0) ^ (b[i % (b.length || 1)] ?? 0);
  return diff === 0;
}

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number, bits = HASH_BITS): Promise<Uint8Array<ArrayBuffer>> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password.normalize('NFC')), 'PBKDF2', false, ['deriveBits']);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, bits));
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
