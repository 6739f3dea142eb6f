/** The page magic links and OAuth providers return to: what the URL says is never shown as it is. */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, expect, test } from 'vitest';
import { BackendContext } from '../../backend/backend-context';
import { createLocalBackend } from '../../backend/local/create-local-backend';
import { SIGN_IN_FAILED } from '../../lib/error-messages';
import { AuthCallbackRoute } from './auth-callback-route';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

test('a provider error in the callback URL shows the catalogue sentence, not the text anyone can put in a link', async () => {
  const tag = `auth-callback-${Date.now().toString(36)}`;
  const backend = createLocalBackend({ dbName: tag, opfsDir: tag, channelName: tag });
  const lure = 'Your account is locked. Call +1 555 0100 and read out your password';
  const router = createMemoryRouter([{ path: '/auth/callback', element: <AuthCallbackRoute /> }], {
    initialEntries: [`/auth/callback?error=access_denied&error_description=${encodeURIComponent(lure)}`],
  });
  flushSync(() =>
    root.render(
      <BackendContext.Provider value={{ backend, session: null }}>
        <RouterProvider router={router} />
      </BackendContext.Provider>,
    ),
  );
  await expect.poll(() => host.textContent).toContain(SIGN_IN_FAILED.title);
  expect(host.textContent).toContain(SIGN_IN_FAILED.action);
  expect(host.textContent).not.toContain('555');
  expect(host.textContent).not.toContain('locked');
});
