/** The app's real routes over a given backend, as the app mounts them, for browser tests of whole screens. */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { flushSync } from 'react-dom';
import type { Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createQueryClient } from '../app/query-client';
import { appRoutes } from '../app/router';
import { BackendContext } from '../backend/backend-context';
import type { Backend } from '../backend/ports';
import { UploadEngineProvider } from '../features/uploads/upload-engine-provider';
import { ToastProvider } from '../ui/toast';

/** Renders the screen at `path` into `root`, signed in as the backend's current session; `client` lets a test look into the query cache. */
export async function renderRoutes(root: Root, backend: Backend, path: string, client: QueryClient = createQueryClient()): Promise<void> {
  const session = await backend.auth.getSession();
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  flushSync(() =>
    root.render(
      <BackendContext.Provider value={{ backend, session }}>
        <QueryClientProvider client={client}>
          <UploadEngineProvider>
            <ToastProvider>
              <RouterProvider router={router} />
            </ToastProvider>
          </UploadEngineProvider>
        </QueryClientProvider>
      </BackendContext.Provider>,
    ),
  );
}
