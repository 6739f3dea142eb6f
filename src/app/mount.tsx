import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';

/** Renders the app into `root`. */
export function mount(root: HTMLElement): void {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
