import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { linkWebAppManifest } from './app/web-app-manifest';
import './ui/styles.css';

linkWebAppManifest(document, window.location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('No #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
