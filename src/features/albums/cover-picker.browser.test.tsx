/** The cover picker over the local backend in real Chromium: what each choice is called. */
import { QueryClientProvider } from '@tanstack/react-query';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { createQueryClient } from '../../app/query-client';
import { BackendContext } from '../../backend/backend-context';
import { createLocalBackend } from '../../backend/local/create-local-backend';
import { isolatedLocal } from '../../testing/isolated-local';
import { seedLocalAlbum } from '../../testing/local-seed';
import { CoverPicker } from './cover-picker';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

test('a choice is named by its filename with direction overrides and marks shown as a placeholder, not obeyed', async () => {
  const names = isolatedLocal('cover-picker');
  const backend = createLocalBackend(names);
  const album = await backend.albums.createAlbum({ title: 'Covers' });
  // "photo‮gpj.exe" reads as "photoexe.jpg" where the override is obeyed.
  const given = ['photo\u202Egpj.exe', 'a\u200Fb\u200E\u061Cc.jpg'];
  await seedLocalAlbum(names, album.id, 2, { filename: (i) => given[i]! });
  const session = await backend.auth.getSession();
  flushSync(() =>
    root.render(
      <BackendContext.Provider value={{ backend, session }}>
        <QueryClientProvider client={createQueryClient()}>
          <CoverPicker albumId={album.id} value={null} onChange={() => undefined} name="cover" />
        </QueryClientProvider>
      </BackendContext.Provider>,
    ),
  );
  const labels = () => [...host.querySelectorAll('.cover-choice:not(.cover-choice--auto) input')].map((i) => i.getAttribute('aria-label') ?? '').sort();
  await expect.poll(labels, { timeout: 10_000 }).toHaveLength(2);
  expect(labels()).toEqual(['a\ufffdb\ufffd\ufffdc.jpg', 'photo\ufffdgpj.exe']);
});
