/**
 * A Supabase project for end-to-end tests with several people: the production build in Chromium, each person
 * in a browser context of their own, against
 *   - the wire emulator (tests/db/wire: GoTrue, PostgREST and Realtime as the hosted API documents them) over
 *     a database of its own on the PostgreSQL server at DATABASE_URL, carrying our migrations;
 *   - the real edge functions in Deno (storage-sign, share-links, share-open, share-upload), on that same
 *     database and the emulator's JWT secret, presigning for the Ceph test bucket (S3_TEST_*) at its https
 *     address on loopback (bucket-endpoint.ts), where they also send their own requests;
 * reached through emulated-gateway.ts. The database must be a server, not PGlite: Deno connects to it.
 *
 * `world` is made once per Playwright worker. Each test gets `signIn(context, who)`, which routes a context to
 * the project (config.json included) and signs `who` in through the sign-in screen, and `world.api(who)`, a
 * supabase-js client as that person for what the UI does not do yet. A test fails when the gateway, the
 * emulator or Realtime met a request they do not serve, or when a page broke its Content-Security-Policy.
 */
import { randomUUID } from 'node:crypto';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { BrowserContext, Page } from '@playwright/test';
import { WebSocket } from 'ws';
import { attachDb, startDb, type Harness } from '../db/db-harness';
import { createWireEmulator, type WireEmulator } from '../db/wire/wire-emulator';
import { testS3Client } from '../s3/s3-test-env';
import { expect, test as base, type CspViolation } from './csp-test';
import { startEdgeFunction, type EdgeFunctionServer } from './edge-function-server';
import { startBucketEndpoint, type BucketEndpoint } from './bucket-endpoint';
import { afterRoundTrip, routeThroughGateway, type GatewayTargets } from './emulated-gateway';
import { supabaseStorageTestEnv } from '../s3/supabase-storage-env';

const PROJECT_URL = 'https://emulated-project.supabase.test';
/** Every person's password (the sign-in screen is filled with it). */
export const PASSWORD = 'correct horse battery staple';

export interface Person {
  id: string;
  name: string;
  email: string;
}

export interface SupabaseWorld {
  projectUrl: string;
  /** The bucket's origin, as the app and the edge functions reach it. */
  bucketOrigin: string;
  /** A new account, signed up through the emulated GoTrue. */
  newPerson(name: string): Promise<Person>;
  /** supabase-js in the test process, signed in as `who`, over the same emulated project. */
  api(who: Person): Promise<SupabaseClient>;
  /** Everything any part of the project did not serve so far. */
  unserved(): string[];
  /** Whether the bucket holds `key`: a HeadObject on the S3 gateway itself, past every route. */
  bucketHas(key: string): Promise<boolean>;
  /** SQL on the project's database as its owner (no RLS), for seeding what the UI would take too long to make. */
  query<T extends Record<string, unknown> = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

interface WorldParts extends SupabaseWorld {
  targets: GatewayTargets;
  /** The config.json the app is served. */
  appConfig: Record<string, unknown>;
}

/** Where the world's project is served from and the config.json that points the app at it (bench/direct-gateway.ts). */
export function worldWiring(world: SupabaseWorld): { targets: GatewayTargets; appConfig: Record<string, unknown> } {
  const { targets, appConfig } = world as WorldParts;
  return { targets, appConfig };
}

/**
 * Where the project's files go: the Ceph bucket through the storage-sign function (`provider: 's3'`), or the real
 * Supabase Storage server (`provider: 'supabase'`, scripts/supabase-storage-test-server.mjs), whose database the
 * world then shares, since Storage's policies read our tables.
 */
export type WorldFiles = 'bucket' | 'supabase-storage';

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(
      `The two-person end-to-end tests need ${name}: a PostgreSQL server the storage-sign function can reach as well as the ` +
        'emulator (PGlite lives inside one process), and the S3 test gateway. Start scripts/postgres-test-server.mjs and ' +
        'scripts/s3-test-server.mjs and export the settings they print, or run `node scripts/test.mjs e2e`, which starts both.',
    );
  }
  return value;
}

async function startWorld(files: WorldFiles): Promise<{ world: WorldParts; stop: () => Promise<void> }> {
  if (files === 'supabase-storage') return startStorageWorld();
  const serverUrl = required('DATABASE_URL');
  const s3 = {
    endpoint: required('S3_TEST_ENDPOINT'),
    region: required('S3_TEST_REGION'),
    bucket: required('S3_TEST_BUCKET'),
    accessKeyId: required('S3_TEST_ACCESS_KEY_ID'),
    secretAccessKey: required('S3_TEST_SECRET_ACCESS_KEY'),
  };
  const db: Harness = await startDb();
  let wire: WireEmulator | null = null;
  let bucketEndpoint: BucketEndpoint | null = null;
  let signer: EdgeFunctionServer | null = null;
  let shareOpen: EdgeFunctionServer | null = null;
  let shareLinks: EdgeFunctionServer | null = null;
  let shareUpload: EdgeFunctionServer | null = null;
  const stop = async () => {
    await shareUpload?.stop();
    await signer?.stop();
    await shareOpen?.stop();
    await shareLinks?.stop();
    await bucketEndpoint?.stop();
    await wire?.close();
    await db.close();
  };
  try {
    wire = await createWireEmulator(db, { realtime: true, realtimePrivateOnly: true });
    const [row] = await db.query<{ name: string }>('select current_database() as name');
    const dbUrl = new URL(serverUrl);
    dbUrl.pathname = `/${row!.name}`;
    bucketEndpoint = await startBucketEndpoint(s3.endpoint);
    const bucketOrigin = bucketEndpoint.origin;
    const functionEnv = {
      ...bucketEndpoint.trust,
      SUPABASE_DB_URL: dbUrl.toString(),
      SUPABASE_JWT_SECRET: wire.jwtSecret,
      S3_ENDPOINT: bucketOrigin,
      S3_REGION: s3.region,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      // The app under test, where share-open's link previews lead (playwright.config.ts serves it here).
      SHOEBOX_SITE_URL: `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4173)}`,
    };
    [signer, shareOpen, shareLinks, shareUpload] = await Promise.all([
      startEdgeFunction('storage-sign', functionEnv),
      startEdgeFunction('share-open', functionEnv),
      startEdgeFunction('share-links', functionEnv),
      startEdgeFunction('share-upload', functionEnv),
    ]);
    const targets: GatewayTargets = {
      projectUrl: PROJECT_URL,
      wire,
      functions: { 'storage-sign': signer.url, 'share-open': shareOpen.url, 'share-links': shareLinks.url, 'share-upload': shareUpload.url },
      s3: { publicOrigin: bucketOrigin, upstream: s3.endpoint },
      unserved: [],
    };
    const bucket = testS3Client({ maxAttempts: 1 });
    const world: WorldParts = {
      ...worldApi(db, wire, targets, {
        bucketOrigin,
        bucketHas: async (key) => {
          try {
            await bucket.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
            return true;
          } catch (e) {
            if ((e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
            throw e;
          }
        },
      }),
      targets,
      appConfig: { supabaseUrl: PROJECT_URL, supabaseAnonKey: wire.anonKey, storage: { provider: 's3' }, allowedOrigins: [bucketOrigin] },
    };
    return { world, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** A world whose files are on the real Supabase Storage server, on that server's database. */
async function startStorageWorld(): Promise<{ world: WorldParts; stop: () => Promise<void> }> {
  const env = supabaseStorageTestEnv();
  const db = await attachDb(env.databaseUrl);
  let wire: WireEmulator | null = null;
  const stop = async () => {
    await wire?.close();
    await db.close();
  };
  try {
    wire = await createWireEmulator(db, { realtime: true, realtimePrivateOnly: true, keys: { jwtSecret: env.jwtSecret, anonKey: env.anonKey } });
    const targets: GatewayTargets = {
      projectUrl: PROJECT_URL,
      wire,
      functions: {},
      // No bucket of its own: the files are on the project, under /storage/v1.
      storage: { upstream: env.url },
      unserved: [],
    };
    const world: WorldParts = {
      ...worldApi(db, wire, targets, {
        bucketOrigin: PROJECT_URL,
        // Read with the service key: no policy in the way.
        bucketHas: async (key) => {
          const res = await fetch(`${env.url}/storage/v1/object/info/${env.bucket}/${key}`, { headers: { authorization: `Bearer ${env.serviceKey}` } });
          if (res.status === 400 || res.status === 404) return false;
          if (!res.ok) throw new Error(`looking for ${key} in Storage: HTTP ${res.status}`);
          return true;
        },
      }),
      targets,
      appConfig: {
        supabaseUrl: PROJECT_URL,
        supabaseAnonKey: wire.anonKey,
        storage: { provider: 'supabase', region: env.region, bucket: env.bucket, projectRef: env.tenantId },
      },
    };
    return { world, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

function worldApi(db: Harness, emulator: WireEmulator, targets: GatewayTargets, files: Pick<SupabaseWorld, 'bucketOrigin' | 'bucketHas'>): SupabaseWorld {
  return {
    ...files,
    projectUrl: PROJECT_URL,
    newPerson: async (name) => {
      const email = `${name.toLowerCase()}.${randomUUID().slice(0, 8)}@example.test`;
      const res = await emulator.fetch(`${PROJECT_URL}/auth/v1/signup`, {
        method: 'POST',
        headers: { apikey: emulator.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD, data: { display_name: name } }),
      });
      const body = (await res.json()) as { user?: { id?: string } };
      if (!res.ok || !body.user?.id) throw new Error(`sign-up of ${name} failed: ${res.status} ${JSON.stringify(body)}`);
      return { id: body.user.id, name, email };
    },
    api: async (who) => {
      const client = createClient(PROJECT_URL, emulator.anonKey, {
        global: { fetch: emulator.fetch },
        auth: { persistSession: false, autoRefreshToken: false },
        realtime: { transport: WebSocket as never },
      });
      const { error } = await client.auth.signInWithPassword({ email: who.email, password: PASSWORD });
      if (error) throw error;
      return client;
    },
    unserved: () => [...targets.unserved, ...emulator.unserved, ...(emulator.realtime?.unserved ?? [])],
    query: <T extends Record<string, unknown>>(sql: string, params?: unknown[]) => db.query<T>(sql, params),
  };
}

/** Reports `context`'s Content-Security-Policy violations into `seen` (csp-test.ts does this for the default page). */
async function watchCsp(context: BrowserContext, seen: CspViolation[]): Promise<void> {
  await context.exposeBinding('__reportCspViolation', (_source, v: CspViolation) => void seen.push(v));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportCspViolation: (v: unknown) => void }).__reportCspViolation;
      report({ directive: e.effectiveDirective, blocked: e.blockedURI, url: e.documentURI });
    });
  });
}

/** Routes `context` to the project (once) and signs `who` in there, in a new page it returns. */
export type SignIn = (context: BrowserContext, who: Person) => Promise<Page>;
/** Routes `context` to the project (once) and returns a new page in it, signed in as no one (a link's visitor). */
export type Visit = (context: BrowserContext) => Promise<Page>;

/**
 * Routes contexts to the project as a test asks, and at the end closes them and checks that none broke its
 * Content-Security-Policy and that the project served every request.
 */
async function withRoutedContexts(
  world: SupabaseWorld,
  directBucket: boolean,
  during: (route: (context: BrowserContext) => Promise<void>) => Promise<void>,
): Promise<void> {
  const { targets: all } = world as WorldParts;
  const targets = directBucket ? { ...all, s3: undefined } : all;
  const unservedBefore = world.unserved().length;
  const violations: CspViolation[] = [];
  const routed = new Map<BrowserContext, () => void>();
  await during(async (context) => {
    if (routed.has(context)) return;
    routed.set(context, () => undefined);
    await watchCsp(context, violations);
    await context.route('**/config.json', (route) =>
      afterRoundTrip(() =>
        route.fulfill({ json: (world as WorldParts).appConfig }),
      ),
    );
    routed.set(context, await routeThroughGateway(context, targets));
  });
  for (const [context, hangUp] of routed) {
    await context.close();
    hangUp();
  }
  expect(violations, 'Content-Security-Policy violations').toEqual([]);
  expect(world.unserved().slice(unservedBefore), 'requests the emulated project does not serve').toEqual([]);
}

export const test = base.extend<
  { signIn: SignIn; visit: Visit },
  { world: SupabaseWorld; worldFiles: WorldFiles; directBucket: boolean }
>({
  // A spec whose files go to the real Supabase Storage server says `test.use({ worldFiles: 'supabase-storage' })`.
  worldFiles: ['bucket', { option: true, scope: 'worker' }],
  // The browser's bucket requests go to the bucket's https endpoint itself rather than through Playwright's
  // routing, which holds each body in memory and passes it over the DevTools protocol: for benchmarks of upload
  // speed. Their contexts must be made with `ignoreHTTPSErrors` (the endpoint's certificate is made per run).
  directBucket: [false, { option: true, scope: 'worker' }],
  world: [
    async ({ worldFiles }, provide) => {
      const { world, stop } = await startWorld(worldFiles);
      try {
        await provide(world);
      } finally {
        await stop();
      }
    },
    // Applying the migrations and starting Deno take a while on a busy machine.
    { scope: 'worker', timeout: 300_000 },
  ],
  signIn: async ({ world, directBucket }, provide) => {
    await withRoutedContexts(world, directBucket, async (route) => {
      await provide(async (context, who) => {
        await route(context);
        const page = await context.newPage();
        await page.goto('/sign-in');
        await page.getByLabel('Email').fill(who.email);
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await expect(page).not.toHaveURL(/\/sign-in/);
        return page;
      });
    });
  },
  visit: async ({ world, directBucket }, provide) => {
    await withRoutedContexts(world, directBucket, async (route) => {
      await provide(async (context) => {
        await route(context);
        return context.newPage();
      });
    });
  },
});

export { expect };
