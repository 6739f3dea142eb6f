/**
 * What a link's visitor keeps in this browser: a visitor id (128 random bits, base64url) in localStorage, the
 * same for every link, so that `share-open` counts one view per browser per day; and per link, the visit
 * `share-open` granted, in sessionStorage, so a reload within the tab does not ask for the password again and
 * a new tab starts a new visit. Storage that is full or refused (private modes) falls back to memory.
 */
import { toBase64Url } from '../../lib/base64';
import type { ShareOpenAnswer } from '../link-types';

const VISITOR_KEY = 'shoebox.share.visitor';
const visitKey = (token: string) => `shoebox.share.visit.${token}`;
let memoryVisitor: string | null = null;

function safe<T>(fn: () => T): T | null {
  try {
    return fn();
  } catch {
    return null;
  }
}

export function visitorId(): string {
  const kept = safe(() => localStorage.getItem(VISITOR_KEY));
  if (kept && /^[A-Za-z0-9_-]{22}$/.test(kept)) return kept;
  const id = memoryVisitor ?? toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
  memoryVisitor = id;
  safe(() => localStorage.setItem(VISITOR_KEY, id));
  return id;
}

/** The visit kept for this link, when it has more than a minute left. */
export function keptVisit(token: string, now = Date.now()): ShareOpenAnswer | null {
  const raw = safe(() => sessionStorage.getItem(visitKey(token)));
  if (!raw) return null;
  const parsed = safe(() => JSON.parse(raw) as ShareOpenAnswer);
  if (!parsed || typeof parsed.visit !== 'string' || Date.parse(parsed.visitExpiresAt) - now < 60_000) return null;
  return parsed;
}

export function keepVisit(token: string, answer: ShareOpenAnswer): void {
  safe(() => sessionStorage.setItem(visitKey(token), JSON.stringify(answer)));
}

export function forgetVisit(token: string): void {
  safe(() => sessionStorage.removeItem(visitKey(token)));
}
