/**
 * share-open: a shared album for anyone holding its link, no account needed (its answers are typed for the app in src/backend/link-types.ts). Deployed with
 * `verify_jwt = false`: supabase-js sends the anon key, which means nobody, and is ignored.
 *
 *   POST { op: "open", token, visitor, password? }   →  { visit, visitExpiresAt, link, album, months }  (counts a view)
 *   POST { op: "counts", visit, sort, kind? }         →  { months }
 *   POST { op: "items", visit, sort, month?, cursor?, limit?, kind? }  →  { rows, nextCursor, expiresAt }
 *   POST { op: "urls", visit, itemIds, variant, download? }           →  { urls, expiresAt, originals }
 *   GET  ?token=…                                     →  an HTML page with Open Graph tags (og-page.ts)
 *
 * Every call checks the link again (_shared/share-access.ts). Errors `{ code, message, … }`: 404
 * share/not-found, 410 share/expired (reason expired | view-limit), 410 share/revoked, 401
 * share/password-required (also a missing, expired or forged visit), 401 share/wrong-password, 429
 * share/rate-limited (Retry-After, retryAfterSeconds), 400 validation/invalid, 500 backend/unreachable.
 */
import { ConfigError, type Env, required } from '../_shared/config-error.ts';
import { type Sql, sqlFromEnv } from '../_shared/database.ts';
import { failure, json, preflight, readJsonObject } from '../_shared/http.ts';
import { verifyPassword } from '../_shared/password-hash.ts';
import { s3SettingsFromEnv } from '../_shared/s3-target.ts';
import { asService, linkByToken, linkByVisit, sha256Hex, ShareError, type SharedLink } from '../_shared/share-access.ts';
import { createPresigner, type Presign } from '../storage-sign/presign.ts';
import { coverItem, itemPage, itemsById, monthCounts, parseItemQuery, parseKind, parseSort } from './item-pages.ts';
import { appLink, ogPage } from './og-page.ts';
import { clientAddress, clientHash, clientKey, refuseIfLimited, takeBack, takeGuess } from './rate-limit.ts';
import { originalsAllowed, UrlSigner, type Variant } from './shared-urls.ts';
import { startVisit } from './visit-token.ts';
import { countView } from './view-count.ts';

export interface ShareOpenDeps {
  sql: Sql;
  presign: Presign;
  /** The app's origin, where `/s/<token>` is. */
  siteOrigin: string;
  /** Keys the hash of a client's address in the wrong-password table ([Note: A client key nobody can recompute]). */
  clientKey: Promise<CryptoKey>;
  /** A header the platform's edge sets to the caller's address ([Note: The client address the platform vouches for]). */
  clientIpHeader?: string;
  now?: () => Date;
}

export function shareOpenDepsFromEnv(env: Env): ShareOpenDeps {
  const first = required(env, 'SHOEBOX_SITE_URL').split(',')[0]!.trim();
  let siteOrigin: string;
  try {
    siteOrigin = new URL(first).origin;
  } catch {
    throw new ConfigError(`SHOEBOX_SITE_URL: ${first} is not a URL`);
  }
  const s3 = s3SettingsFromEnv(env);
  const clientIpHeader = env.SHOEBOX_CLIENT_IP_HEADER?.trim().toLowerCase() || undefined;
  return { sql: sqlFromEnv(env), presign: createPresigner(s3), siteOrigin, clientKey: clientKey(s3.secretAccessKey), ...(clientIpHeader ? { clientIpHeader } : {}) };
}

const MAX_BODY_BYTES = 64 * 1024;
const MAX_URL_ITEMS = 500;
const VISITOR = /^[A-Za-z0-9_-]{16,128}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const invalid = (field: string, message: string) => new ShareError(400, 'validation/invalid', message, { details: { field } });

export async function handle(request: Request, deps: ShareOpenDeps): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight();
  const now = deps.now?.() ?? new Date();
  try {
    if (request.method === 'GET') return await page(request, deps, now);
    if (request.method !== 'POST') return failure(405, 'validation/invalid', 'Use POST or GET.', { Allow: 'GET, POST, OPTIONS' });
    const body = await readBody(request);
    switch (body.op) {
      case 'open':
        return json(200, await open(request, body, deps, now));
      case 'counts':
        return json(200, await counts(body, deps, now));
      case 'items':
        return json(200, await items(body, deps, now));
      case 'urls':
        return json(200, await urls(body, deps, now));
      default:
        throw invalid('op', 'Unknown operation.');
    }
  } catch (e) {
    if (e instanceof ShareError) return json(e.status, { code: e.code, message: e.detail, ...e.extra }, e.headers);
    console.error('share-open:', e instanceof Error ? e.message : e);
    return failure(500, 'backend/unreachable', 'The shared album could not be read.');
  }
}

async function open(request: Request, body: Record<string, unknown>, deps: ShareOpenDeps, now: Date) {
  const { token, visitor, password } = body;
  if (typeof visitor !== 'string' || !VISITOR.test(visitor)) throw invalid('visitor', 'visitor is a base64url id this browser keeps.');
  if (password !== undefined && typeof password !== 'string') throw invalid('password', 'A password is text.');

  const guessing = typeof password === 'string' && password !== '';
  const { link, guess } = await asService(deps.sql, async (tx) => {
    const link = await linkByToken(tx, token, now);
    if (link.passwordHash === null) return { link, guess: null };
    const client = await clientHash(clientAddress(request, deps.clientIpHeader), link.linkId, await deps.clientKey);
    // [Note: A guess is counted before it is checked]
    if (!guessing) {
      await refuseIfLimited(tx, link.linkId, client, now);
      return { link, guess: null };
    }
    return { link, guess: await takeGuess(tx, link.linkId, client, now) };
  });
  if (link.passwordHash !== null) {
    if (!guessing || guess === null) throw new ShareError(401, 'share/password-required', 'This link asks for a password.');
    if (!(await verifyPassword(password as string, link.passwordHash))) throw new ShareError(401, 'share/wrong-password', 'This is not the password.');
    await asService(deps.sql, (tx) => takeBack(tx, guess));
  }

  const visitorHash = await sha256Hex(`visitor\n${visitor}`);
  return await asService(deps.sql, async (tx) => {
    // Checked again in the transaction that counts the view: the link may have changed meanwhile.
    const current = await linkByToken(tx, token, now);
    if (current.passwordHash !== link.passwordHash) throw new ShareError(401, 'share/password-required', 'Open the link again.');
    await countView(tx, current.linkId, visitorHash, now);
    const visit = await startVisit(tx, current, visitorHash, now);
    const signer = new UrlSigner(deps.presign, current, now);
    const cover = await coverItem(tx, current.albumId);
    return {
      visit: visit.visit,
      visitExpiresAt: visit.expiresAt.toISOString(),
      link: linkAnswer(current),
      album: {
        title: current.albumTitle,
        description: current.albumDescription,
        itemCount: current.itemCount,
        coverThumbhash: cover?.thumbhash ?? null,
        coverUrl: cover ? (await signer.url(cover, 'preview')) ?? (await signer.url(cover, 'thumb')) : null,
      },
      months: await monthCounts(tx, current.albumId, 'taken', null),
    };
  });
}

function linkAnswer(link: SharedLink) {
  return {
    label: link.label,
    expiresAt: link.expiresAt?.toISOString() ?? null,
    allowDownload: link.allowDownload,
    allowGuestUpload: link.allowGuestUpload,
    originals: originalsAllowed(link),
    guestMaxFiles: link.guestMaxFiles,
    guestMaxBytes: link.guestMaxBytes,
  };
}

async function counts(body: Record<string, unknown>, deps: ShareOpenDeps, now: Date) {
  const sort = parseSort(body.sort);
  const kind = parseKind(body.kind);
  return await asService(deps.sql, async (tx) => {
    const link = await linkByVisit(tx, body.visit, now);
    return { months: await monthCounts(tx, link.albumId, sort, kind) };
  });
}

async function items(body: Record<string, unknown>, deps: ShareOpenDeps, now: Date) {
  const query = parseItemQuery(body);
  return await asService(deps.sql, async (tx) => {
    const link = await linkByVisit(tx, body.visit, now);
    const page = await itemPage(tx, link.albumId, query);
    const signer = new UrlSigner(deps.presign, link, now);
    return {
      rows: await Promise.all(page.rows.map((r) => signer.sharedItem(r))),
      nextCursor: page.nextCursor,
      expiresAt: signer.expiresAt.toISOString(),
    };
  });
}

async function urls(body: Record<string, unknown>, deps: ShareOpenDeps, now: Date) {
  const { itemIds, variant, download } = body;
  if (!Array.isArray(itemIds) || itemIds.length > MAX_URL_ITEMS || !itemIds.every((id) => typeof id === 'string' && UUID.test(id))) {
    throw invalid('itemIds', `Ask for 0 to ${MAX_URL_ITEMS} item ids.`);
  }
  if (variant !== 'original' && variant !== 'preview' && variant !== 'thumb') throw invalid('variant', 'Ask for original, preview or thumb.');
  if (download !== undefined && typeof download !== 'boolean') throw invalid('download', 'download is true or false.');
  return await asService(deps.sql, async (tx) => {
    const link = await linkByVisit(tx, body.visit, now);
    const rows = await itemsById(tx, link.albumId, [...new Set((itemIds as string[]).map((id) => id.toLowerCase()))]);
    const signer = new UrlSigner(deps.presign, link, now);
    const out: Record<string, string> = {};
    for (const row of rows) {
      const url = await signer.url(row, variant as Variant, download === true);
      if (url !== null) out[row.id] = url;
    }
    return { urls: out, expiresAt: signer.expiresAt.toISOString(), originals: originalsAllowed(link) };
  });
}

/**
 * The link preview page: the album's title and cover only for a valid link without a password that still has
 * views left (a link used up gives nothing more of its album, not even to a preview).
 */
async function page(request: Request, deps: ShareOpenDeps, now: Date): Promise<Response> {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  const target = appLink(deps.siteOrigin, token);
  let content = null;
  try {
    content = await asService(deps.sql, async (tx) => {
      const link = await linkByToken(tx, token, now);
      if (link.passwordHash !== null) return null;
      if (link.maxViews !== null && link.viewCount >= link.maxViews) return null;
      const cover = await coverItem(tx, link.albumId);
      const signer = new UrlSigner(deps.presign, link, now);
      const n = link.itemCount;
      return {
        title: link.albumTitle,
        description: link.albumDescription.trim() || `${n} ${n === 1 ? 'item' : 'items'}`,
        imageUrl: cover ? await signer.url(cover, 'preview') : null,
      };
    });
  } catch (e) {
    if (!(e instanceof ShareError)) throw e;
  }
  return ogPage(target, content);
}

async function readBody(request: Request): Promise<Record<string, unknown>> {
  const body = await readJsonObject(request, MAX_BODY_BYTES);
  if (!body) throw invalid('body', 'Send a JSON object with an op.');
  return body;
}
