/**
 * Splits comment text into plain text and web links. Only `http:` and `https:` URLs written out in full become
 * links; everything else (`javascript:`, `data:`, `file:`, bare domains) stays text. A dozen lines instead of a
 * linkify library: this is all comments need, and it keeps the viewer's chunk small.
 */
export type TextToken = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const URL_LIKE = /\bhttps?:\/\/[^\s<>"'`]+/giu;
// Punctuation that usually ends the sentence rather than the address ("see https://x.org/a.").
const TRAILING = /[.,;:!?'")\]}>]+$/u;

export function linkTokens(text: string): TextToken[] {
  const out: TextToken[] = [];
  let at = 0;
  for (const match of text.matchAll(URL_LIKE)) {
    const start = match.index;
    let candidate = match[0];
    // Keep a closing bracket that belongs to the address: https://en.wikipedia.org/wiki/Foo_(bar)
    const trailing = TRAILING.exec(candidate)?.[0] ?? '';
    let cut = trailing.length;
    if (trailing.startsWith(')') && candidate.slice(0, -cut).includes('(')) cut -= 1;
    if (cut > 0) candidate = candidate.slice(0, -cut);
    const href = safeHref(candidate);
    if (!href) continue;
    if (start > at) out.push({ kind: 'text', text: text.slice(at, start) });
    out.push({ kind: 'link', text: candidate, href });
    at = start + candidate.length;
  }
  if (at < text.length) out.push({ kind: 'text', text: text.slice(at) });
  return out;
}

/** The URL as the browser will follow it, when it is http or https with a host; null otherwise. */
export function safeHref(candidate: string): string | null {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return null;
  return url.href;
}
