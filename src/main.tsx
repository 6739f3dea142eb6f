/**
 * [Note: A small entry]
 * A module runs only once every module it imports is fetched and evaluated. This entry imports only what must
 * run first: it starts reading config.json and loading the backend (see [Note: Opening the backend before the
 * first render]) and catches the install prompt, then loads the app itself (React, the router, the screens).
 * config.json's round trip then overlaps the app's code being fetched and evaluated, instead of following it.
 */
import { startBoot } from './app/boot';
import { linkWebAppManifest } from './app/web-app-manifest';
import { startInstallPrompt } from './features/install/install-prompt';
import './ui/styles.css';

linkWebAppManifest(document, window.location.pathname);
// Before the first render: Chromium's install prompt comes once, early (see [Note: Capturing the install prompt]).
startInstallPrompt(window);

// Its failure is shown by App, which waits on the same promise.
void startBoot().catch(() => undefined);

const root = document.getElementById('root');
if (!root) throw new Error('No #root element');
import('./app/mount').then(
  ({ mount }) => mount(root),
  () => {
    // The app's code could not be fetched (offline before the app was ever installed, or a deploy mid-load).
    const message = document.createElement('p');
    message.className = 'page';
    message.textContent = 'Shoebox could not load. Check your connection, then reload the page.';
    root.replaceChildren(message);
  },
);
