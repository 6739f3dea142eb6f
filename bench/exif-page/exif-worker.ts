// The benchmark's worker: the 1,000 photos as Blobs (each its own metadata segments before one of a few shared
// image data tails), and both ways of reading their metadata, timed here over all of them.
import exifr from 'exifr';
import { photoMetadataFromTags, readPhotoMetadata, type PhotoMetadata } from '../../src/media/photo-metadata';

export interface Request {
  kind: 'setup' | 'run';
  contender?: 'exifreader' | 'exifr';
  heads?: Uint8Array;
  index?: { offset: number; length: number; tail: number }[];
  tails?: Uint8Array[];
}

export interface Response {
  count?: number;
  ms?: number;
  /** Of the last run: every photo's metadata, as JSON, to compare the two readers'. */
  digest?: string;
  error?: string;
}

/** What the app passed exifr before ExifReader (src/media/photo-metadata.ts, up to 2f3f797). */
const EXIFR_OPTIONS = {
  tiff: true,
  exif: true,
  gps: false,
  interop: false,
  ifd1: false,
  makerNote: false,
  userComment: false,
  icc: false,
  iptc: false,
  jfif: false,
  ihdr: false,
  xmp: { parse: false },
  reviveValues: false,
  translateValues: false,
  mergeOutput: true,
};

/** The previous reader: exifr's tags into the same mapping (JPEG's XMP is exifr's own, as it was). */
async function readWithExifr(blob: Blob): Promise<PhotoMetadata> {
  let tags: Record<string, unknown> | undefined;
  try {
    tags = (await exifr.parse(blob, EXIFR_OPTIONS)) as Record<string, unknown> | undefined;
  } catch {
    tags = undefined;
  }
  return photoMetadataFromTags(tags ?? {});
}

let photos: Blob[] = [];

async function handle(request: Request): Promise<Response> {
  if (request.kind === 'setup') {
    const { heads, index, tails } = request;
    // A Blob made of another refers to it: the 7 MiB tails are held once, not a thousand times.
    const tailBlobs = tails!.map((t) => new Blob([t as Uint8Array<ArrayBuffer>]));
    photos = index!.map(({ offset, length, tail }) => new Blob([heads!.subarray(offset, offset + length) as Uint8Array<ArrayBuffer>, tailBlobs[tail]!], { type: 'image/jpeg' }));
    return { count: photos.length };
  }
  const read = request.contender === 'exifr' ? readWithExifr : readPhotoMetadata;
  const out: PhotoMetadata[] = [];
  const t0 = performance.now();
  for (const photo of photos) out.push(await read(photo));
  const ms = performance.now() - t0;
  return { ms, digest: JSON.stringify(out) };
}

self.onmessage = (e: MessageEvent<Request>) => {
  handle(e.data).then(
    (r) => self.postMessage(r),
    (err: unknown) => self.postMessage({ error: String(err) }),
  );
};
