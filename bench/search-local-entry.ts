// Loaded into a page by search-local-bench.mjs: seeds albums of photos with realistic names and details in the
// local backend, then times searches through the backend and the same searches as a scan of every row.
import { createLocalBackend } from '../src/backend/local/create-local-backend';
import type { ItemRecord } from '../src/backend/local/local-db';
import type { ItemMetadata } from '../src/domain/entities';
import type { SearchQuery } from '../src/domain/queries';
import { itemWords, queryWords, wordsMatch } from '../src/lib/search-words';
import { seedLocalAlbum } from '../src/testing/local-seed';

const DB = 'search-bench';
const target = { dbName: DB, opfsDir: DB };

const ALBUMS = [
  'Lisbon 2023',
  'Iceland road trip',
  'Ana & João’s wedding',
  'Garden through the year',
  'Kids 2021',
  'Kyoto in autumn',
  'Christmas at Grandma’s',
  'Skiing in Zermatt',
  'Camping by the lake',
  'Berlin weekend',
  'Marathon training',
  'New York 2019',
  'Graduation day',
  'Paris with friends',
  'Summer at the coast',
  'The dog’s first year',
  'Concerts',
  'Kitchen experiments',
  'Sunday hikes',
  'Old scans from Dad',
];

/** Keywords and how often an item has each: a few common, most rare, as a photographer's tags are. */
const KEYWORDS: [string, number][] = [
  ['Family', 0.3],
  ['Friends', 0.2],
  ['Portrait', 0.1],
  ['Landscape', 0.1],
  ['City', 0.1],
  ['Beach', 0.08],
  ['Night', 0.07],
  ['Food', 0.06],
  ['Sunset', 0.05],
  ['Snow', 0.04],
  ['Dog', 0.04],
  ['Mountains', 0.04],
  ['Cat', 0.03],
  ['Harbour', 0.03],
  ['Street', 0.03],
  ['Bridge', 0.02],
  ['Architecture', 0.02],
  ['Flowers', 0.02],
  ['Birthday', 0.015],
  ['Lighthouse', 0.01],
  ['Tram', 0.01],
  ['Waterfall', 0.008],
  ['Fireworks', 0.005],
  ['Northern lights', 0.002],
];

const TITLES = ['Morning walk', 'Evening light', 'Old town', 'Harbour view', 'By the river', 'Back home', 'On the road', 'First snow', 'Golden hour', 'After the rain'];

const CAMERAS = [
  { share: 0.45, make: 'Apple', model: 'iPhone 15 Pro', lens: 'iPhone 15 Pro back triple camera 6.86mm f/1.78', name: (n: number, r: number) => `IMG_${pad(n)}.${r < 0.7 ? 'JPG' : 'HEIC'}` },
  { share: 0.2, make: 'Google', model: 'Pixel 8', lens: undefined, name: (n: number) => `PXL_2023${pad(1 + (n % 12), 2)}${pad(1 + ((n * 7) % 28), 2)}_${pad(n * 7919, 9)}.jpg` },
  { share: 0.2, make: 'FUJIFILM', model: 'X-T5', lens: 'XF23mmF1.4 R LM WR', name: (n: number, r: number) => `DSCF${pad(n)}.${r < 0.5 ? 'JPG' : 'RAF'}` },
  { share: 0.15, make: 'SONY', model: 'ILCE-7M4', lens: 'FE 24-70mm F2.8 GM II', name: (n: number, r: number) => `DSC0${pad(n)}.${r < 0.5 ? 'JPG' : 'ARW'}` },
];

function pad(n: number, width = 4): string {
  return String(n % 10 ** width).padStart(width, '0');
}

/** mulberry32: the same albums every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Photo {
  filename: string;
  metadata: ItemMetadata;
}

function photo(album: number, i: number): Photo {
  const rand = random(album * 1_000_003 + i);
  let pick = rand();
  const camera = CAMERAS.find((c) => (pick -= c.share) < 0) ?? CAMERAS[0]!;
  const keywords = KEYWORDS.filter(([, p]) => rand() < p).map(([k]) => k);
  const r = rand();
  const rating = r < 0.6 ? undefined : r < 0.7 ? 1 : r < 0.78 ? 2 : r < 0.86 ? 3 : r < 0.95 ? 4 : 5;
  const metadata: ItemMetadata = {
    cameraMake: camera.make,
    cameraModel: camera.model,
    ...(camera.lens ? { lens: camera.lens } : {}),
    ...(keywords.length ? { keywords } : {}),
    ...(rand() < 0.3 ? { title: TITLES[Math.floor(rand() * TITLES.length)]! } : {}),
    ...(rating ? { rating } : {}),
  };
  return { filename: camera.name(i + album * 37, rand()), metadata };
}

declare global {
  interface Window {
    bench: {
      seed(albums: number, perAlbum: number): Promise<string[]>;
      search(query: SearchQuery): Promise<{ ms: number; rows: number }>;
      scan(query: SearchQuery): Promise<{ ms: number; rows: number; matches: number }>;
    };
  }
}

const backend = createLocalBackend(target);

/** The first page as a backend without a word index would find it: every row read and tested. */
function scan(query: SearchQuery): Promise<{ rows: number; matches: number }> {
  const words = queryWords(query.text ?? '');
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const found: ItemRecord[] = [];
      const request = db.transaction('items').objectStore('items').openCursor();
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        const cursor = request.result;
        if (cursor) {
          const r = cursor.value as ItemRecord;
          if (
            r.lb === 'a' &&
            (!query.albumId || r.albumId === query.albumId) &&
            (!query.minRating || (r.metadata.rating ?? 0) >= query.minRating) &&
            wordsMatch(itemWords(r), words)
          ) {
            found.push(r);
          }
          cursor.continue();
          return;
        }
        found.sort((a, b) => b.st - a.st || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
        db.close();
        resolve({ rows: Math.min(found.length, query.limit ?? 100), matches: found.length });
      };
    };
  });
}

window.bench = {
  async seed(albums, perAlbum) {
    const ids: string[] = [];
    for (let a = 0; a < albums; a++) {
      const album = await backend.albums.createAlbum({ title: ALBUMS[a % ALBUMS.length]! });
      await seedLocalAlbum(target, album.id, perAlbum, {
        seed: a + 1,
        filename: (i) => photo(a, i).filename,
        metadata: (i) => photo(a, i).metadata,
      });
      ids.push(album.id);
    }
    return ids;
  },
  async search(query) {
    const t0 = performance.now();
    const page = await backend.search.searchItems(query);
    return { ms: performance.now() - t0, rows: page.rows.length };
  },
  async scan(query) {
    const t0 = performance.now();
    const result = await scan(query);
    return { ms: performance.now() - t0, ...result };
  },
};
