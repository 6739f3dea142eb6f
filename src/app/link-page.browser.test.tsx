/**
 * The public page of a share link, `/s/:token`, in Chromium: the app's routes over a signed-out Supabase
 * backend whose `share-open` function answers on the stubbed wire as the shared contract of issue 11 words it
 * (the function itself runs in Deno: tests/e2e/share-link.spec.ts drives it). Each state a visitor can meet,
 * the album's grid and viewer, and a link revoked while the page is open.
 */
import axe from 'axe-core';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { createLocalBackend } from '../backend/local/create-local-backend';
import { isolatedLocal } from '../testing/isolated-local';
import { renderRoutes } from '../testing/render-routes';
import { stubBackend } from '../testing/supabase-test-session';
import { json, WireStub, type RecordedRequest } from '../testing/supabase-wire-stub';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));
beforeEach(() => sessionStorage.clear());

const eventually = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
const PATH = '/functions/v1/share-open';
const TOKEN = 'Qm9va3NoZWxmLWxpbmstdG9r';
const HOUR = 3_600_000;

/** A coloured square standing in for a thumbnail (the bucket's presigned URL in the real thing). */
const square = (hue: number) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="hsl(${hue},60%,50%)"/></svg>`)}`;

function sharedItem(i: number) {
  return {
    id: `item-${i}`,
    kind: 'image',
    filename: `beach-${i}.jpg`,
    mime: 'image/jpeg',
    bytes: 1_000_000 + i,
    width: 4000,
    height: 3000,
    durationMs: null,
    takenAt: `2026-07-${String(20 - i).padStart(2, '0')}T10:00:00Z`,
    createdAt: '2026-08-01T10:00:00Z',
    thumbhash: null,
    metadata: { cameraMake: 'Fujifilm', cameraModel: 'X-T5', creator: 'Rui Sá', rights: 'CC BY 4.0' },
    addedBy: 'Ana',
    thumbUrl: square(i * 40),
    previewUrl: square(i * 40 + 10),
    posterUrl: null,
    originalUrl: null,
  };
}

interface LinkOptions {
  password?: string;
  /** The answer to `open` for any password (a link that no longer works, or too many tries). */
  refuse?: Response;
  /** The answer to `items` (a link revoked after it opened). */
  itemsRefuse?: () => Response | null;
}

/** share-open as the contract says it answers, for one link of a three-photo album called Algarve. */
function linkStub(opts: LinkOptions = {}) {
  const stub = new WireStub();
  const visit = 'visit-token-1';
  stub.on('POST', PATH, (req: RecordedRequest) => {
    const body = req.body as Record<string, unknown>;
    if (body.op === 'open') {
      if (opts.refuse) return opts.refuse.clone();
      if (opts.password !== undefined && body.password === undefined) return json({ code: 'share/password-required', message: 'Password.' }, 401);
      if (opts.password !== undefined && body.password !== opts.password) return json({ code: 'share/wrong-password', message: 'Wrong.' }, 401);
      return json({
        visit,
        visitExpiresAt: new Date(Date.now() + 12 * HOUR).toISOString(),
        link: { label: null, expiresAt: null, allowDownload: false, allowGuestUpload: false, originals: false, guestMaxFiles: null, guestMaxBytes: null },
        album: { title: 'Algarve', description: 'A week by the sea', itemCount: 3, coverThumbhash: null, coverUrl: square(200) },
        months: [{ month: '2026-07', count: 3 }],
      });
    }
    if (body.visit !== visit) return json({ code: 'share/password-required', message: 'No visit.' }, 401);
    if (body.op === 'items') {
      const refused = opts.itemsRefuse?.();
      if (refused) return refused;
      return json({ rows: [0, 1, 2].map(sharedItem), nextCursor: null, expiresAt: new Date(Date.now() + HOUR).toISOString() });
    }
    if (body.op === 'counts') return json({ months: [{ month: '2026-07', count: 3 }] });
    if (body.op === 'urls') return json({ urls: {}, expiresAt: new Date(Date.now() + HOUR).toISOString() });
    return json({ code: 'validation/invalid', message: 'op' }, 400);
  });
  return { stub, backend: stubBackend(stub) };
}

const ops = (stub: WireStub) => stub.to(PATH).map((r) => (r.body as { op: string }).op);
const seriousAxe = async () =>
  (await axe.run(document.body, { resultTypes: ['violations'] })).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);

test('a protected link asks for the password, keeps a wrong one typed and focused, then shows the album and its viewer', async () => {
  const { stub, backend } = linkStub({ password: 'tide-pools-2026' });
  await renderRoutes(root, backend, `/s/${TOKEN}`);
  const field = page.getByLabelText('Password');
  await expect.element(field).toBeVisible();
  await expect.element(page.getByRole('heading', { name: 'This album is protected by a password.' })).toBeVisible();
  // No account around the page, and nothing of the album before the password.
  expect(document.querySelector('nav[aria-label="Main"]')).toBeNull();
  expect(document.body.textContent).not.toContain('Algarve');
  expect(await seriousAxe()).toEqual([]);

  await userEvent.type(field, 'sand-castles');
  await page.getByRole('button', { name: 'Open album' }).click();
  await expect.element(page.getByRole('alert')).toHaveTextContent('That password is not right.');
  expect((field.element() as HTMLInputElement).value).toBe('sand-castles');
  await eventually(() => document.activeElement?.id).toBe('share-password');
  expect(field.element().getAttribute('aria-invalid')).toBe('true');

  await userEvent.clear(field);
  await userEvent.type(field, 'tide-pools-2026{Enter}');
  await expect.element(page.getByRole('heading', { level: 1, name: 'Algarve' })).toBeVisible();
  await expect.element(page.getByText('A week by the sea')).toBeVisible();
  await eventually(() => document.querySelectorAll('[data-item-id]').length).toBe(3);
  // Without, wrong, right; the month counts came with `open`, so the first view asks only for the month's items.
  expect(ops(stub)).toEqual(['open', 'open', 'open', 'items']);
  const opened = stub.to(PATH).at(-2)!.body as { visitor: string; password: string };
  expect(opened.visitor).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(await seriousAxe()).toEqual([]);

  // The viewer as members have it, without comments, hearts or a download the link does not allow.
  (document.querySelector('[data-item-id="item-1"]') as HTMLElement).click();
  const viewer = page.getByRole('dialog', { name: 'beach-1.jpg' });
  await expect.element(viewer).toBeVisible();
  expect(document.querySelector('[data-testid="comments-toggle"]')).toBeNull();
  expect(document.querySelector('button[aria-label="Download original"]')).toBeNull();
  await userEvent.keyboard('{ArrowRight}');
  await expect.element(page.getByRole('dialog', { name: 'beach-2.jpg' })).toBeVisible();
  await userEvent.keyboard('i');
  await expect.element(page.getByRole('complementary', { name: 'Details' })).toHaveTextContent('Fujifilm X-T5');
  await expect.element(page.getByRole('complementary', { name: 'Details' })).toHaveTextContent('Ana');
  // The photographer's name and terms, from the photo's XMP.
  await expect.element(page.getByRole('complementary', { name: 'Details' })).toHaveTextContent(/Creator\s*Rui Sá/);
  await expect.element(page.getByRole('complementary', { name: 'Details' })).toHaveTextContent(/Rights\s*CC BY 4\.0/);
  await userEvent.keyboard('{Escape}');
  await eventually(() => document.querySelector('[role="dialog"]')).toBeNull();
});

test('too many wrong passwords count down to the next try, with the button off until then', async () => {
  const { backend } = linkStub({ refuse: json({ code: 'share/rate-limited', message: 'Wait.', retryAfterSeconds: 125 }, 429) });
  await renderRoutes(root, backend, `/s/${TOKEN}`);
  await expect.element(page.getByRole('alert')).toHaveTextContent(/Too many attempts\. You can try again in 2 min 0[45] s\./);
  await userEvent.type(page.getByLabelText('Password'), 'anything-at-all');
  expect((page.getByRole('button', { name: 'Open album' }).element() as HTMLButtonElement).disabled).toBe(true);
  const first = page.getByRole('alert').element().textContent;
  await eventually(() => page.getByRole('alert').element().textContent).not.toBe(first);
});

test('an expired, used-up, revoked or unknown link says so and shows nothing of the album', async () => {
  const cases: [Response, string][] = [
    [json({ code: 'share/expired', message: 'Expired.', reason: 'expired' }, 410), 'This link has expired.'],
    [json({ code: 'share/expired', message: 'Used up.', reason: 'view-limit' }, 410), 'This link has reached its view limit.'],
    [json({ code: 'share/revoked', message: 'Revoked.' }, 410), 'This link has been turned off.'],
    [json({ code: 'share/not-found', message: 'No such link.' }, 404), 'This link does not exist.'],
  ];
  for (const [refuse, sentence] of cases) {
    flushSync(() => root.render(null));
    const { backend } = linkStub({ refuse });
    await renderRoutes(root, backend, `/s/${TOKEN}`);
    await expect.element(page.getByRole('heading', { level: 1, name: sentence })).toBeVisible();
    expect(document.body.textContent).not.toContain('Algarve');
    expect(document.querySelector('input')).toBeNull();
  }
  expect(await seriousAxe()).toEqual([]);
});

test('a link revoked while its page is open stops the page: the state shows and nothing more is asked', async () => {
  let revoked = false;
  const { stub, backend } = linkStub({ itemsRefuse: () => (revoked ? json({ code: 'share/revoked', message: 'Revoked.' }, 410) : null) });
  await renderRoutes(root, backend, `/s/${TOKEN}?sort=added`);
  await expect.element(page.getByRole('heading', { level: 1, name: 'Algarve' })).toBeVisible();
  await eventually(() => document.querySelectorAll('[data-item-id]').length).toBe(3);
  revoked = true;
  // Another view needs another page of items: the function answers that the link was revoked.
  const sort = page.getByLabelText('Sort');
  await userEvent.selectOptions(sort, 'taken');
  await expect.element(page.getByRole('heading', { level: 1, name: 'This link has been turned off.' })).toBeVisible();
  expect(document.querySelectorAll('[data-item-id]').length).toBe(0);
  const asked = stub.to(PATH).length;
  // What showing the state sets going (effects, queries of what is now on screen) has started once the page
  // has drawn two frames since.
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  expect(stub.to(PATH).length).toBe(asked);
  // The visit is forgotten: coming back opens the link again (and hears it is revoked).
  expect(Object.keys(sessionStorage).filter((k) => k.startsWith('shoebox.share.visit.'))).toEqual([]);
});

test('a reload in the same tab shows the album again without asking for the password', async () => {
  const { stub, backend } = linkStub({ password: 'tide-pools-2026' });
  await renderRoutes(root, backend, `/s/${TOKEN}`);
  await userEvent.type(page.getByLabelText('Password'), 'tide-pools-2026{Enter}');
  await expect.element(page.getByRole('heading', { level: 1, name: 'Algarve' })).toBeVisible();
  flushSync(() => root.render(null));
  stub.clear();
  await renderRoutes(root, backend, `/s/${TOKEN}`);
  await expect.element(page.getByRole('heading', { level: 1, name: 'Algarve' })).toBeVisible();
  await eventually(() => document.querySelectorAll('[data-item-id]').length).toBe(3);
  expect(ops(stub)).not.toContain('open');
});

test('on this device (the local backend) no link exists', async () => {
  const backend = createLocalBackend(isolatedLocal('share-page'));
  await renderRoutes(root, backend, `/s/${TOKEN}`);
  await expect.element(page.getByRole('heading', { level: 1, name: 'This link does not exist.' })).toBeVisible();
});
