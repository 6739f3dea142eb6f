// The FilesPort contract on the S3 adapter, in real Chromium against the test gateway (Ceph RGW): every
// request crosses origins and passes the bucket's CORS rules, as in production. The rows come from a local
// backend, which reserves the items whose keys the objects take; album and item ids are fresh random UUIDs,
// so a run never meets objects left by an earlier one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdp } from 'vitest/browser';
import { reserveInput } from '../../src/testing/contract/contract-fixtures';
import { describeFilesPortContract } from '../../src/testing/contract/files-port-contract';
import { createLocalBackend, type LocalBackendOptions } from '../../src/backend/local/create-local-backend';
import type { Backend } from '../../src/backend/ports';
import { s3BrowserEnv } from './s3-browser-env';
import { pageFiles } from './s3-browser-files';

/** Fresh names per test: a database, a file directory and a channel nobody else uses. */
function isolated(): Required<LocalBackendOptions> {
  const id = crypto.randomUUID();
  return { dbName: `test-${id}`, opfsDir: `test-${id}`, channelName: `test-${id}` };
}

function s3Backend(): Backend {
  const { endpoint, region, bucket, accessKeyId, secretAccessKey } = s3BrowserEnv();
  return { ...createLocalBackend(isolated()), files: pageFiles({ endpoint, region, bucket, accessKeyId, secretAccessKey }) };
}

/** Limits this page's upload bandwidth to `bytesPerSecond` (-1: no limit), Chromium's own throttling. */
async function throttleUpload(bytesPerSecond: number): Promise<void> {
  const session = cdp();
  await session.send('Network.enable');
  await session.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
}

// At a real uplink's pace (16 MiB/s) a cancel on the first progress event lands mid-body, as the contract
// means it to. On loopback the whole body is sent before Chromium's first progress event; that case (a
// cancel once every byte has left) has its own test below.
describe('throttled to 16 MiB/s', () => {
  beforeAll(() => throttleUpload(16 * 1024 * 1024));
  afterAll(() => throttleUpload(-1));
  // Presigned GET URLs are made without asking the bucket, so a missing object gets a URL that answers 404.
  describeFilesPortContract('s3 (session signer, Ceph RGW)', s3Backend, { missingObjectUrls: 'answer-404' });
});

describe('at loopback speed', () => {
  it('a cancel after the last byte has left still leaves no object behind', async () => {
    const b = s3Backend();
    const album = await b.albums.createAlbum({ title: 'Canceled' });
    const items = await b.itemWrites.reserveItems(album.id, [1, 2, 3, 4, 5].map(() => reserveInput()));
    const body = new Blob([new Uint8Array(6 * 1024 * 1024).fill(7)], { type: 'image/jpeg' });
    for (const item of items) {
      const stop = new AbortController();
      let cancelAt = -1;
      const upload = b.files.upload(
        { key: item.originalKey, blob: body, contentType: 'image/jpeg' },
        {
          signal: stop.signal,
          onProgress: (sent) => {
            if (sent < body.size || stop.signal.aborted) return;
            cancelAt = sent;
            stop.abort();
          },
        },
      );
      await expect(upload).rejects.toMatchObject({ name: 'AbortError' });
      expect(cancelAt).toBe(body.size);
      const url = (await b.files.urls([item.originalKey])).get(item.originalKey)!;
      expect((await fetch(url)).status).toBe(404);
    }
  });
});
