import { expect, test } from './csp-test';

test('a wrong config.json stops start-up with a clear message, not a blank page', async ({ page }) => {
  await page.route('**/config.json', (route) => route.fulfill({ json: { supabaseURL: 'https://x.supabase.co' } }));
  await page.goto('/');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Shoebox is not set up correctly');
  await expect(alert).toContainText('unknown settings: supabaseURL');
});

test('a service_role key in config.json is refused before anything uses it', async ({ page }) => {
  const payload = Buffer.from(JSON.stringify({ role: 'service_role', iss: 'supabase' })).toString('base64url');
  await page.route('**/config.json', (route) =>
    route.fulfill({ json: { supabaseUrl: 'https://x.supabase.co', supabaseAnonKey: `e30.${payload}.sig` } }),
  );
  await page.goto('/');
  await expect(page.getByRole('alert')).toContainText('must never reach a browser');
});
