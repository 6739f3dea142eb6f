/** Bytes as standard base64 (with padding), for short values: digests, placeholders. */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}
