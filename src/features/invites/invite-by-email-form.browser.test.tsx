import { QueryClientProvider } from '@tanstack/react-query';
import axe from 'axe-core';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { userEvent } from 'vitest/browser';
import { createQueryClient } from '../../app/query-client';
import { BackendContext } from '../../backend/backend-context';
import { createLocalBackend } from '../../backend/local/create-local-backend';
import type { Backend } from '../../backend/ports';
import { signedIn } from '../../testing/supabase-test-session';
import { json } from '../../testing/supabase-wire-stub';
import { InviteByEmailForm } from './invite-by-email-form';

const ALBUM = '0b7c6a4e-3f0d-4e57-9a53-6f6c2e1d9a10';
const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

async function render(backend: Backend) {
  const session = await backend.auth.getSession();
  flushSync(() => root.render(
    <BackendContext.Provider value={{ backend, session }}>
      <QueryClientProvider client={createQueryClient()}>
        <InviteByEmailForm albumId={ALBUM} />
      </QueryClientProvider>
    </BackendContext.Provider>,
  ));
}

/** The function's answer for an invitation it made (supabase/functions/invite-email/handler.ts). */
function invited(email: string, role: string) {
  return json({
    invite: {
      id: crypto.randomUUID(), albumId: ALBUM, role, email, expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      maxUses: null, useCount: 0, createdBy: crypto.randomUUID(), createdAt: new Date().toISOString(), revokedAt: null,
    },
  });
}

const field = () => host.querySelector('input[name="email"]') as HTMLInputElement;
const send = () => host.querySelector('button[type="submit"]') as HTMLButtonElement;
/** axe's serious and critical findings in the form, by rule. */
async function seriousViolations(): Promise<string[]> {
  const result = await axe.run(host);
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

const alertText = () => host.querySelector('[role="alert"]')?.textContent ?? null;

test('the owner sends an invitation: the function gets the address, the role and this app’s origin, and the form says where it went', async () => {
  const { backend, stub } = await signedIn();
  stub.on('POST', '/functions/v1/invite-email', (req) => invited((req.body as { email: string }).email, (req.body as { role: string }).role));
  await render(backend);
  await userEvent.fill(field(), '  ana@example.org ');
  await userEvent.selectOptions(host.querySelector('select[name="role"]') as HTMLSelectElement, 'contributor');
  await userEvent.click(send());
  await expect.poll(() => host.querySelector('[role="status"]')?.textContent).toBe('Invitation sent to ana@example.org');
  expect(stub.last('/functions/v1/invite-email').body).toEqual({ albumId: ALBUM, email: 'ana@example.org', role: 'contributor', redirectOrigin: window.location.origin });
  expect(field().value).toBe('');
  expect(alertText()).toBeNull();
  expect(await seriousViolations()).toEqual([]);
});

test('an address that is not one is said at once and nothing is sent', async () => {
  const { backend, stub } = await signedIn();
  await render(backend);
  await userEvent.fill(field(), 'ana at example');
  await userEvent.click(send());
  await expect.poll(alertText).toBe('This is not an e-mail address.');
  expect(field().getAttribute('aria-invalid')).toBe('true');
  expect(stub.to('/functions/v1/invite-email')).toEqual([]);
  // Corrected, it goes.
  stub.on('POST', '/functions/v1/invite-email', invited('ana@example.org', 'viewer'));
  await userEvent.fill(field(), 'ana@example.org');
  await userEvent.click(send());
  await expect.poll(() => host.querySelector('[role="status"]')?.textContent).toBe('Invitation sent to ana@example.org');
});

test('a refused or failed send says why with the catalogue’s sentence and keeps the typed address', async () => {
  const { backend, stub } = await signedIn();
  await render(backend);
  stub.on('POST', '/functions/v1/invite-email', json({ code: 'album/forbidden', message: 'Your role in this album does not allow this.' }, 403));
  await userEvent.fill(field(), 'ben@example.org');
  await userEvent.click(send());
  await expect.poll(() => host.querySelector('[data-error-code]')?.getAttribute('data-error-code')).toBe('album/forbidden');
  expect(alertText()).toBe('Your role in this album does not allow that. Ask the album owner for a different role.');
  expect(field().value).toBe('ben@example.org');
  expect(host.querySelector('[role="status"]')).toBeNull();

  stub.on('POST', '/functions/v1/invite-email', json({ code: 'backend/unreachable', message: 'The invitation could not be mailed.' }, 502));
  await userEvent.click(send());
  await expect.poll(() => host.querySelector('[data-error-code]')?.getAttribute('data-error-code')).toBe('backend/unreachable');
  expect(field().value).toBe('ben@example.org');

  stub.on('POST', '/functions/v1/invite-email', json({ code: 'validation/invalid', message: 'limit', details: { field: 'email', rule: 'too-many', limit: 20 } }, 429, { 'Retry-After': '3600' }));
  await userEvent.click(send());
  await expect.poll(alertText).toBe('At most 20 invitations by e-mail can be sent for one album in an hour. Try again later.');
  expect(field().value).toBe('ben@example.org');
  expect(send().textContent).toBe('Send invitation');
  expect(await seriousViolations()).toEqual([]);
});

test('on this device, where albums have no other members, the form explains instead of offering to send', async () => {
  const tag = `invite-email-${crypto.randomUUID()}`;
  const backend = createLocalBackend({ dbName: tag, opfsDir: tag, channelName: tag });
  await render(backend);
  await expect.poll(() => host.querySelector('[data-testid="invite-email-unavailable"]')?.textContent).toBe('Inviting by e-mail needs a Supabase project.');
  expect(host.querySelector('form')).toBeNull();
});
