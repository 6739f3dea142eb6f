import { createBackend, preloadServerBackend } from '../backend/create-backend';
import type { Backend } from '../backend/ports';
import { narrowContentSecurityPolicy } from './narrow-content-security-policy';
import { lastConfigChoseServer, loadRuntimeConfig } from './runtime-config';

let started: Promise<Backend> | null = null;

/**
 * [Note: Opening the backend before the first render]
 * Reading config.json and loading the chosen adapter's code are round trips that need nothing from React, so
 * `main.tsx` starts them before the first render and `App` waits on the same promise: they run while the
 * bundle is still being evaluated and mounted, instead of after. When the configuration seen last chose a
 * server, that adapter's code is fetched alongside config.json, and the kept query cache's code while the
 * session is read (an installed app's start then waits on no code fetched in sequence). Once per page.
 */
export function startBoot(): Promise<Backend> {
  started ??= (() => {
    if (lastConfigChoseServer(import.meta.env)) preloadServerBackend();
    return loadRuntimeConfig(import.meta.env).then((config) => {
      // Only the built app has a policy to narrow; the dev server's own scripts would not pass it.
      if (import.meta.env.PROD) narrowContentSecurityPolicy(config);
      return createBackend(config.backend);
    }).then((backend) => {
      // The kept query cache's code comes while the session and profile are read, not after them.
      if (backend.capabilities.network.required) void import('./query-persistence').catch(() => undefined);
      return backend;
    });
  })();
  return started;
}
