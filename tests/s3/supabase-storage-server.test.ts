// The Supabase Storage server the tests run is the real one, behind a gateway that behaves as Supabase's does:
// signed S3 requests with a person's session pass or fail by the project's storage policies, and CORS is
// answered by the gateway (see [Note: What the storage gateway does]).
import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { openStorageDatabase, serviceS3Client, sessionS3Client, supabaseStorageTestEnv, type StorageDatabase, type StoragePerson } from './supabase-storage-env';
import { raw } from './raw-http';

const env = supabaseStorageTestEnv();

async function failure(promise: Promise<unknown>): Promise<{ name?: string; status?: number; message?: string }> {
  try {
    await promise;
  } catch (err) {
    const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    return { name: e.name, status: e.$metadata?.httpStatusCode, message: e.message };
  }
  throw new Error('expected the request to fail');
}

describe('Supabase Storage test server', () => {
  let db: StorageDatabase;
  let owner: StoragePerson;
  let stranger: StoragePerson;
  let albumId: string;
  let service: S3Client;
  const clients: S3Client[] = [];
  const asPerson = (person: StoragePerson, opts?: Parameters<typeof sessionS3Client>[1]) => {
    const client = sessionS3Client(person.jwt, { maxAttempts: 1, ...opts });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    db = await openStorageDatabase();
    owner = await db.createPerson('Olive Owner');
    stranger = await db.createPerson('Stan Stranger');
    albumId = await db.createAlbum(owner);
    service = serviceS3Client();
  });
  afterAll(async () => {
    for (const client of clients) client.destroy();
    service?.destroy();
    await db?.close();
  });

  it('stores the original of an item its uploader reserved, PUT through the S3 endpoint with their session', async () => {
    const item = await db.reserveItem(owner, albumId);
    const body = randomBytes(64 * 1024);
    const put = await asPerson(owner).send(new PutObjectCommand({ Bucket: env.bucket, Key: item.originalKey, Body: body, ContentType: 'image/jpeg' }));
    expect(put.ETag).toBe(`"${createHash('md5').update(body).digest('hex')}"`);

    const got = await asPerson(owner).send(new GetObjectCommand({ Bucket: env.bucket, Key: item.originalKey }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(body)).toBe(true);
    expect(got.ContentType).toBe('image/jpeg');
    // The server wrote the row as that person: Row Level Security saw them.
    const rows = await db.query<{ owner_id: string }>(`select owner_id from storage.objects where bucket_id = $1 and name = $2`, [env.bucket, item.originalKey]);
    expect(rows).toEqual([{ owner_id: owner.id }]);
  });

  it('takes a multipart upload, its part PUT from a page to a presigned URL, whose ETag the page can read', async () => {
    const item = await db.reserveItem(owner, albumId);
    const client = asPerson(owner);
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: env.bucket, Key: item.originalKey, ContentType: 'image/jpeg' }));
    const body = randomBytes(100 * 1024);
    const url = await getSignedUrl(client, new UploadPartCommand({ Bucket: env.bucket, Key: item.originalKey, UploadId, PartNumber: 1 }), { expiresIn: 300 });
    const part = await fetch(url, { method: 'PUT', body, headers: { Origin: 'http://localhost:5173' } });
    expect(part.status).toBe(200);
    const md5 = createHash('md5').update(body).digest('hex');
    // Without the quotes S3 puts around an ETag.
    expect(part.headers.get('etag')).toBe(md5);
    expect(part.headers.get('access-control-allow-origin')).toBe('*');
    // The server exposes the part's ETag itself; the gateway exposes nothing.
    expect(part.headers.get('access-control-expose-headers')?.toLowerCase()).toBe('etag');

    await client.send(new CompleteMultipartUploadCommand({ Bucket: env.bucket, Key: item.originalKey, UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: md5 }] } }));
    const got = await client.send(new GetObjectCommand({ Bucket: env.bucket, Key: item.originalKey }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(body)).toBe(true);

    // A whole-object PUT from a page: its ETag is sent but not exposed to the page.
    const again = await db.reserveItem(owner, albumId);
    const putUrl = await getSignedUrl(client, new PutObjectCommand({ Bucket: env.bucket, Key: again.originalKey, ContentType: 'image/jpeg' }), { expiresIn: 300 });
    const put = await fetch(putUrl, { method: 'PUT', body, headers: { Origin: 'http://localhost:5173', 'content-type': 'image/jpeg' } });
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toBe(`"${md5}"`);
    expect(put.headers.get('access-control-allow-origin')).toBe('*');
    expect(put.headers.get('access-control-expose-headers')).toBeNull();
  });

  it('refuses with 403 AccessDenied a PUT the storage policies do not allow, and stores nothing', async () => {
    const item = await db.reserveItem(owner, albumId);
    // A stranger to the album, at the key of an item its owner reserved.
    const byStranger = await failure(asPerson(stranger).send(new PutObjectCommand({ Bucket: env.bucket, Key: item.originalKey, Body: 'x', ContentType: 'image/jpeg' })));
    expect(byStranger).toMatchObject({ name: 'AccessDenied', status: 403, message: expect.stringContaining('row-level security') });
    // The album's owner, under an item nobody reserved.
    const unreserved = `albums/${albumId}/${randomUUID()}/original`;
    const notReserved = await failure(asPerson(owner).send(new PutObjectCommand({ Bucket: env.bucket, Key: unreserved, Body: 'x', ContentType: 'image/jpeg' })));
    expect(notReserved).toMatchObject({ name: 'AccessDenied', status: 403 });

    for (const Key of [item.originalKey, unreserved]) {
      expect((await failure(service.send(new HeadObjectCommand({ Bucket: env.bucket, Key })))).status).toBe(404);
    }
  });

  it('refuses a request signed with another secret than the anon key (403 SignatureDoesNotMatch)', async () => {
    const item = await db.reserveItem(owner, albumId);
    const forged = await failure(asPerson(owner, { secretAccessKey: `${env.anonKey}x` }).send(new PutObjectCommand({ Bucket: env.bucket, Key: item.originalKey, Body: 'x', ContentType: 'image/jpeg' })));
    expect(forged).toMatchObject({ name: 'SignatureDoesNotMatch', status: 403 });
  });

  it('answers a browser preflight at the gateway as Supabase\'s does, where the server alone answers none', async () => {
    const preflight = {
      Origin: 'http://localhost:5173',
      'Access-Control-Request-Method': 'PUT',
      'Access-Control-Request-Headers': 'authorization,content-type,x-amz-content-sha256,x-amz-date,x-amz-security-token',
    };
    const path = `s3/${env.bucket}/albums/${albumId}/${randomUUID()}/original`;
    const atGateway = await raw(`${env.url}/storage/v1/${path}`, 'OPTIONS', preflight);
    expect(atGateway.status).toBe(200);
    expect(atGateway.headers['access-control-allow-origin']).toBe('*');
    expect(atGateway.headers['access-control-allow-headers']).toBe(preflight['Access-Control-Request-Headers']);
    expect(String(atGateway.headers['access-control-allow-methods']).split(',')).toEqual(expect.arrayContaining(['GET', 'HEAD', 'PUT', 'POST', 'DELETE']));

    const atServer = await raw(`${env.serverUrl}/${path}`, 'OPTIONS', preflight);
    expect(atServer.headers['access-control-allow-origin']).toBeUndefined();

    // An answer to a request from a page carries the origin rule too, an error included.
    const refused = await raw(`${env.url}/storage/v1/bucket/${env.bucket}`, 'GET', { Origin: 'http://localhost:5173', authorization: `Bearer ${stranger.jwt}` });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('scripts/supabase-storage-test-server.mjs', () => {
  const script = new URL('../../scripts/supabase-storage-test-server.mjs', import.meta.url).pathname;
  // The storage server's database URL names a superuser of the PostgreSQL server; its `postgres` database is where
  // another instance's database is made and dropped.
  const adminUrl = Object.assign(new URL(env.databaseUrl), { pathname: '/postgres' }).toString();
  const base: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SUPABASE_STORAGE_TEST_')));

  function run(args: string[], extra: NodeJS.ProcessEnv): Promise<{ status: number | null; vars: Record<string, string>; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [script, ...args], { env: { ...base, DATABASE_URL: adminUrl, ...extra }, timeout: 240_000 }, (err, stdout, stderr) => {
        const vars = Object.fromEntries([...stdout.matchAll(/^(SUPABASE_STORAGE_TEST_\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
        resolve({ status: err ? (typeof err.code === 'number' ? err.code : null) : 0, vars, stderr });
      });
    });
  }
  const databaseExists = async (name: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return (await client.query(`select 1 from pg_database where datname = $1`, [name])).rowCount === 1;
    } finally {
      await client.end();
    }
  };

  it('never reuses a running server: a start from its folder, or on its gateway\'s port, fails and says why', async () => {
    expect((await run(['check'], { SUPABASE_STORAGE_TEST_DIR: env.dir })).status).toBe(0);

    const again = await run(['start'], { SUPABASE_STORAGE_TEST_DIR: env.dir });
    expect(again.status).toBe(1);
    expect(again.vars).toEqual({});
    expect(again.stderr).toContain(`a storage server started from ${env.dir} is running`);

    const port = new URL(env.url).port;
    const elsewhere = join(tmpdir(), `shoebox-storage-script-test-${process.pid}-taken`);
    const taken = await run(['start'], { SUPABASE_STORAGE_TEST_DIR: elsewhere, SUPABASE_STORAGE_TEST_PORT: port });
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain(`127.0.0.1:${port} (SUPABASE_STORAGE_TEST_PORT) is already in use`);
    expect(existsSync(elsewhere)).toBe(false);

    // The running one is untouched.
    expect((await run(['check'], { SUPABASE_STORAGE_TEST_DIR: env.dir })).status).toBe(0);
  });

  it('starts another instance on free ports and a database of its own; stop ends both processes, drops it and deletes the folder', async () => {
    const dir = join(tmpdir(), `shoebox-storage-script-test-${process.pid}`);
    try {
      const started = await run(['start'], { SUPABASE_STORAGE_TEST_DIR: dir });
      expect(started.status, started.stderr).toBe(0);
      const other = started.vars;
      expect(other.SUPABASE_STORAGE_TEST_URL).not.toBe(env.url);
      expect(other.SUPABASE_STORAGE_TEST_DATABASE_URL).not.toBe(env.databaseUrl);
      const database = new URL(other.SUPABASE_STORAGE_TEST_DATABASE_URL!).pathname.slice(1);
      expect(await databaseExists(database)).toBe(true);
      expect((await run(['check'], { SUPABASE_STORAGE_TEST_DIR: dir })).status).toBe(0);

      const stopped = await run(['stop'], { SUPABASE_STORAGE_TEST_DIR: dir });
      expect(stopped.status, stopped.stderr).toBe(0);
      expect(existsSync(dir)).toBe(false);
      expect(await databaseExists(database)).toBe(false);
      await expect(fetch(`${other.SUPABASE_STORAGE_TEST_URL}/storage/v1/status`)).rejects.toThrow();
      await expect(fetch(`${other.SUPABASE_STORAGE_TEST_SERVER_URL}/status`)).rejects.toThrow();
      expect((await run(['check'], { SUPABASE_STORAGE_TEST_DIR: dir })).status).toBe(1);
    } finally {
      await run(['stop'], { SUPABASE_STORAGE_TEST_DIR: dir });
    }
  });
});
