/**
 * Real photographs made into thumbnails as the app makes them (WebP, long edge 480, quality 0.8: src/config.ts)
 * with their thumbhash, and the bucket they go into, for the Playwright benchmarks that seed albums straight into
 * SQL and S3 (bench/warm-start.bench.ts, bench/offline.bench.ts). The photographs are Debian's mate-backgrounds
 * (/usr/share/backgrounds/mate/nature), with the test fixtures as a fallback where that package is missing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import sharp, { type Sharp } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';

const PHOTO_DIR = '/usr/share/backgrounds/mate/nature';
const root = new URL('..', import.meta.url).pathname;
const FALLBACK = ['tests/fixtures/location/rocket.jpg', 'tests/fixtures/location/coffee.webp', 'tests/fixtures/location/chelsea.png'].map((p) => root + p);
const THUMB_EDGE = 480;
const THUMB_QUALITY = 80;

export interface Thumb {
  webp: Buffer;
  width: number;
  height: number;
  hash: string;
  source: string;
}

export function photographs(): string[] {
  if (!existsSync(PHOTO_DIR)) return FALLBACK;
  return readdirSync(PHOTO_DIR)
    .filter((f) => /\.(jpe?g|png)$/i.test(f))
    .sort()
    .map((f) => `${PHOTO_DIR}/${f}`);
}

async function encode(img: Sharp, source: string): Promise<Thumb> {
  const thumb = img.resize(THUMB_EDGE, THUMB_EDGE, { fit: 'inside' });
  const { data, info } = await thumb.clone().webp({ quality: THUMB_QUALITY }).toBuffer({ resolveWithObject: true });
  const small = await sharp(data).resize(100, 100, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const hash = Buffer.from(rgbaToThumbHash(small.info.width, small.info.height, small.data)).toString('base64');
  return { webp: data, width: info.width, height: info.height, hash, source };
}

/** One thumbnail of each photograph, whole. */
export async function wholeThumbnails(): Promise<Thumb[]> {
  return Promise.all(photographs().map((p) => encode(sharp(readFileSync(p)), p)));
}

/**
 * `count` different thumbnails: 4:3 or 3:4 views of the photographs at several zooms and places, so that each
 * is a picture of its own and weighs what a phone photo's thumbnail weighs. Deterministic for a given count.
 */
export async function varyingThumbnails(count: number): Promise<Thumb[]> {
  const bases = await Promise.all(
    photographs().map(async (p) => ({ p, ...(await sharp(readFileSync(p)).resize(1600, 1600, { fit: 'inside' }).raw().toBuffer({ resolveWithObject: true })) })),
  );
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const plans = Array.from({ length: count }, (_, i) => {
    const b = bases[i % bases.length]!;
    const portrait = i % 5 === 4;
    const scale = 0.35 + 0.6 * rand();
    const width = Math.floor((portrait ? b.info.height * 0.75 : b.info.width) * scale);
    const height = Math.min(b.info.height, Math.floor(portrait ? width * (4 / 3) : width * 0.75));
    const left = Math.floor(rand() * (b.info.width - width));
    const top = Math.floor(rand() * Math.max(0, b.info.height - height));
    return { b, left, top, width, height };
  });
  const out: Thumb[] = [];
  // Two at a time: libvips threads fill the two cores.
  for (let i = 0; i < plans.length; i += 2) {
    out.push(
      ...(await Promise.all(
        plans.slice(i, i + 2).map(({ b, left, top, width, height }) =>
          encode(sharp(b.data, { raw: b.info }).extract({ left, top, width, height }), b.p),
        ),
      )),
    );
  }
  return out;
}

export function bucket(): S3Client {
  return new S3Client({
    endpoint: process.env.S3_TEST_ENDPOINT!,
    region: process.env.S3_TEST_REGION!,
    forcePathStyle: true,
    credentials: { accessKeyId: process.env.S3_TEST_ACCESS_KEY_ID!, secretAccessKey: process.env.S3_TEST_SECRET_ACCESS_KEY! },
  });
}

/** Puts each object, `parallel` at a time. */
export async function putObjects(objects: { key: string; body: Buffer }[], parallel = 32): Promise<void> {
  const s3 = bucket();
  const queue = [...objects];
  try {
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        for (let o = queue.shift(); o; o = queue.shift()) {
          await s3.send(new PutObjectCommand({ Bucket: process.env.S3_TEST_BUCKET!, Key: o.key, Body: o.body, ContentType: 'image/webp' }));
        }
      }),
    );
  } finally {
    s3.destroy();
  }
}
