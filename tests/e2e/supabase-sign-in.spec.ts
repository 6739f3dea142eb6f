import type { Route } from '@playwright/test';
import { expect, test } from './csp-test';

// The hosted Supabase API cannot run here: these answers follow its documented wire format (GoTrue and
// PostgREST), so the real app and supabase-js are exercised end to end in the browser.
const PROJECT = 'https://demo-project.supabase.co';
const USER_ID = '6f1d2c3b-0000-4000-8000-000000000001';
const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const ANON_KEY = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ role: 'anon', iss: 'supabase' })}.c2ln`;

function accessToken(): string {
  const now = Math.floor(Date.now() / 1000);
  return `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: USER_ID, role: 'authenticated', aud: 'authenticated', email: 'ada@example.com', exp: now + 3600, iat: now })}.c2ln`;
}

const user = { id: USER_ID, aud: 'authenticated', role: 'authenticated', email: 'ada@example.com', email_confirmed_at: '2026-01-01T00:00:00Z', app_metadata: { provider: 'email' }, user_metadata: { display_name: 'Ada' }, created_at: '2026-01-01T00:00:00Z' };

test('with a Supabase project configured, a visitor signs in first; a wrong password says so', async ({ page }) => {
  const seen: string[] = [];
  let globalFailed = false;
  await page.route('**/config.json', (route) => route.fulfill({ json: { supabaseUrl: PROJECT, supabaseAnonKey: ANON_KEY } }));
  await page.route(`${PROJECT}/**`, async (route: Route) => {
    const req = route.request();
    const url = new URL(req.url());
    seen.push(`${req.method()} ${url.pathname}`);
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': '*' };
    if (req.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    if (url.pathname === '/auth/v1/token') {
      const body = req.postDataJSON() as { password: string };
      if (body.password !== 'correct horse battery') {
        return route.fulfill({ status: 400, headers: cors, json: { code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' } });
      }
      return route.fulfill({ headers: cors, json: { access_token: accessToken(), token_type: 'bearer', expires_in: 3600, expires_at: Math.floor(Date.now() / 1000) + 3600, refresh_token: 'r1', user } });
    }
    if (url.pathname === '/auth/v1/logout') {
      // The first "everywhere" finds the auth server down.
      if (url.searchParams.get('scope') === 'global' && !globalFailed) {
        globalFailed = true;
        return route.fulfill({ status: 503, headers: cors, json: { code: 503, msg: 'Service Unavailable' } });
      }
      return route.fulfill({ status: 204, headers: cors });
    }
    if (url.pathname === '/rest/v1/profiles') {
      return route.fulfill({ headers: cors, json: [{ id: USER_ID, display_name: 'Ada', avatar_key: null, created_at: '2026-01-01T00:00:00Z' }] });
    }
    if (url.pathname === '/rest/v1/rpc/touch_device') return route.fulfill({ status: 204, headers: cors });
    if (url.pathname === '/rest/v1/rpc/list_devices') {
      const seenAt = new Date().toISOString();
      return route.fulfill({
        headers: cors,
        json: [
          { id: '0b4f6c1e-0000-4000-8000-000000000001', label: 'Chrome 131 on Linux', kind: 'desktop', installed_pwa: false, last_seen_at: seenAt, current: true },
          { id: '0b4f6c1e-0000-4000-8000-000000000002', label: 'Safari 18 on iOS, iPhone', kind: 'mobile', installed_pwa: true, last_seen_at: seenAt, current: false },
        ],
      });
    }
    if (url.pathname === '/rest/v1/album_summaries' || url.pathname === '/rest/v1/activity_feed') {
      return route.fulfill({ headers: { ...cors, 'content-range': '*/0' }, json: [] });
    }
    return route.fulfill({ status: 404, headers: cors, json: { message: `not stubbed: ${url.pathname}` } });
  });

  await page.goto('/albums/some-album');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Falbums%2Fsome-album/);
  await expect(page.getByRole('heading', { name: 'Sign in to Shoebox' })).toBeVisible();

  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Password').fill('wrong password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveAttribute('data-error-code', 'auth/invalid-credentials');
  // What was typed stays.
  await expect(page.getByLabel('Email')).toHaveValue('ada@example.com');

  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/albums\/some-album$/);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'No albums yet' })).toBeVisible();
  expect(seen).toContain('POST /auth/v1/token');
  expect(seen).toContain('GET /rest/v1/album_summaries');

  // A failed sign-out says so beside the sign-out buttons, not under the profile form, and keeps the session.
  await page.goto('/account');
  // Albums on a server: the account screen neither says they stay on this device nor offers to keep its storage.
  await expect(page.getByRole('region', { name: 'Where your albums live' })).toContainText('On your Supabase project');
  await expect(page.getByRole('button', { name: 'Keep my albums when the browser clears space' })).toHaveCount(0);
  const devices = page.getByRole('region', { name: 'Signed-in devices' });
  await devices.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(devices.getByRole('alert')).toHaveAttribute('data-error-code', 'backend/unreachable');
  await expect(page.locator('form').getByRole('alert')).toHaveCount(0);
  await expect(page).toHaveURL(/\/account$/);

  // Signing out on other devices keeps this one signed in; signing out here goes back to the sign-in screen.
  await devices.getByRole('button', { name: 'Sign out of all other devices' }).click();
  await page.getByRole('dialog', { name: 'Sign out of all other devices?' }).getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(devices.getByRole('status')).toContainText('other devices have been signed out');
  await devices.getByRole('button', { name: 'Sign out this device' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  // Signed out here, on purpose: no notice about being signed out from elsewhere.
  await expect(page.getByRole('heading', { name: 'Sign in to Shoebox' })).toBeVisible();
  await expect(page.getByTestId('signed-out-elsewhere')).toHaveCount(0);
  expect(seen.filter((r) => r === 'POST /auth/v1/logout')).toHaveLength(3);
});
