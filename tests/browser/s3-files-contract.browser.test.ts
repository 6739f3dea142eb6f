// The FilesPort contract on the S3 adapter, in real Chromium against the test gateway (Ceph RGW): every
// request crosses origins and passes the bucket's CORS rules, as in production. The rows come from a local
// backend, which reserves the items whose keys the objects take; album and item ids are fresh random UUIDs,
// so a run never meets objects left by an earlier one.
import { afterAll, beforeAll } from 'vitest';
import { cdp } from 'vitest/browser';
import { describeFilesPortContract } from '../../src/backend/contract/files-port-contract';
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
// means it to. On loopback the whole body is sent before Chromium's first progress event, and the cancel
// races the gateway's write: it can still store the object, which S3Files does not yet clean up.
beforeAll(() => throttleUpload(16 * 1024 * 1024));
afterAll(() => throttleUpload(-1));

// Presigned GET URLs are made without asking the bucket, so a missing object gets a URL that answers 404.
describeFilesPortContract('s3 (session signer, Ceph RGW)', s3Backend, { missingObjectUrls: 'answer-404' });
