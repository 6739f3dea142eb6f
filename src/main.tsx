import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { startBoot } from './app/boot';
import { linkWebAppManifest } from './app/web-app-manifest';
import { startInstallPrompt } from './features/install/install-prompt';
import './ui/styles.css';

linkWebAppManifest(document, window.location.pathname);
// Before the first render: Chromium's install prompt comes once, early (see [Note: Capturing the install prompt]).
startInstallPrompt(window);

// While React mounts: see [Note: Opening the backend before the first render]. Its failure is shown by App.
void startBoot().catch(() => undefined);

const root = document.getElementById('root');
if (!root) throw new Error('No #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
