// Loaded into the app's origin by grid-bench.mjs: makes an album of N synthetic photos in the local backend.
import { createLocalBackend } from '../src/backend/local/create-local-backend';
import { seedLocalAlbum } from '../src/testing/local-seed';

declare global {
  interface Window {
    __seedAlbum: (count: number) => Promise<string>;
  }
}

window.__seedAlbum = async (count: number) => {
  const backend = createLocalBackend();
  const album = await backend.albums.createAlbum({ title: `${count.toLocaleString('en-US')} photos` });
  await seedLocalAlbum({}, album.id, count);
  return album.id;
};
