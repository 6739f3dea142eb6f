import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from './routes/app-layout';
import { AlbumsRoute } from './routes/albums-route';
import { NotFoundRoute } from './routes/not-found-route';
import { RequireSession } from './routes/require-session';
import { RouteError } from './routes/route-error';

/** Shown while the first screen's code loads, as the boot screen was. */
const loading = <div className="boot" aria-busy="true" />;

/** Routes of PRODUCT.md §2. The album grid, viewer, uploads and account screens load when first visited. */
export const appRoutes: RouteObject[] = [
  {
    path: '/',
    element: (
      <RequireSession>
        <AppLayout />
      </RequireSession>
    ),
    errorElement: <RouteError />,
    hydrateFallbackElement: loading,
    children: [
      { index: true, element: <AlbumsRoute /> },
      {
        path: 'albums/:albumId',
        lazy: async () => ({ Component: (await import('./routes/album-route')).AlbumRoute }),
        children: [
          {
            path: 'items/:itemId',
            lazy: async () => ({ Component: (await import('./routes/viewer-route')).ViewerRoute }),
          },
        ],
      },
      {
        path: 'albums/:albumId/settings',
        lazy: async () => ({ Component: (await import('./routes/album-settings-route')).AlbumSettingsRoute }),
      },
      {
        path: 'search',
        lazy: async () => ({ Component: (await import('./routes/search-route')).SearchRoute }),
        children: [
          {
            path: 'albums/:albumId/items/:itemId',
            lazy: async () => ({ Component: (await import('./routes/search-viewer-route')).SearchViewerRoute }),
          },
        ],
      },
      { path: 'uploads', lazy: async () => ({ Component: (await import('./routes/uploads-route')).UploadsRoute }) },
      { path: 'share-target', lazy: async () => ({ Component: (await import('./routes/share-inbox-route')).ShareTargetRoute }) },
      { path: 'account', lazy: async () => ({ Component: (await import('./routes/account-route')).AccountRoute }) },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
  { path: '/sign-in', hydrateFallbackElement: loading, lazy: async () => ({ Component: (await import('./routes/sign-in-route')).SignInRoute }) },
  // Outside RequireSession: a signed-out visitor first sees that they are invited, then signs in.
  { path: '/invite/:token', hydrateFallbackElement: loading, lazy: async () => ({ Component: (await import('./routes/invite-route')).InviteRoute }) },
  // A public link's page: no session, no account screens, no navigation into the app.
  {
    path: '/s/:token',
    hydrateFallbackElement: loading,
    errorElement: <RouteError />,
    lazy: async () => ({ Component: (await import('./routes/link-page-route')).ShareRoute }),
    children: [{ path: 'items/:itemId', lazy: async () => ({ Component: (await import('./routes/link-page-viewer-route')).ShareViewerRoute }) }],
  },
  { path: '/auth/callback', hydrateFallbackElement: loading, lazy: async () => ({ Component: (await import('./routes/auth-callback-route')).AuthCallbackRoute }) },
];

export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
