import { DOWNLOAD_PATH } from '../lib/worker-download';

/**
 * Navigations the worker never answers with the cached index.html: they go to the network (or fail offline).
 * The sign-in callback must run against the server's answer (its code is single-use), a deployment that puts
 * Supabase's functions, REST or storage under the app's own origin must reach them, and downloads have their
 * own route. Navigations by POST (the share target's) are not matched by a NavigationRoute at all: its route is
 * registered for GET only. The share target's own page (GET /share-target) is an app route and opens offline.
 */
export const NAVIGATION_DENYLIST: RegExp[] = [
  /^\/auth\/callback(?:[/?#]|$)/,
  /^\/functions\//,
  /^\/rest\//,
  /^\/storage\//,
  /^\/auth\/v1\//,
  new RegExp(`^${DOWNLOAD_PATH}`),
];
