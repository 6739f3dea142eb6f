import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { linkWebAppManifest } from './app/web-app-manifest';
import { startInstallPrompt } from './features/install/install-prompt';
import './ui/styles.css';

linkWebAppManifest(document, window.location.pathname);
// Before the first render: Chromium's install prompt comes once, early (see [Note: Capturing the install prompt]).
startInstallPrompt(window);

const root = document.getElementById('root');
if (!root) throw new Error('No #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
