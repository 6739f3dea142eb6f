// The Supabase Storage test server's coordinates as SUPABASE_STORAGE_TEST_* variables
// (scripts/supabase-storage-test-server.mjs prints them), read the same way by the Node suites (from process.env)
// and the browser suite (from what Vitest provides).
import type { SupabaseStorageTestServer } from '../../scripts/supabase-storage-test-server.mjs';

export type SupabaseStorageTestEnv = SupabaseStorageTestServer;

const NAMES = {
  url: 'SUPABASE_STORAGE_TEST_URL',
  databaseUrl: 'SUPABASE_STORAGE_TEST_DATABASE_URL',
  jwtSecret: 'SUPABASE_STORAGE_TEST_JWT_SECRET',
  anonKey: 'SUPABASE_STORAGE_TEST_ANON_KEY',
  serviceKey: 'SUPABASE_STORAGE_TEST_SERVICE_KEY',
  tenantId: 'SUPABASE_STORAGE_TEST_TENANT_ID',
  region: 'SUPABASE_STORAGE_TEST_REGION',
  bucket: 'SUPABASE_STORAGE_TEST_BUCKET',
  s3AccessKeyId: 'SUPABASE_STORAGE_TEST_S3_ACCESS_KEY_ID',
  s3SecretAccessKey: 'SUPABASE_STORAGE_TEST_S3_SECRET_ACCESS_KEY',
  serverUrl: 'SUPABASE_STORAGE_TEST_SERVER_URL',
  dir: 'SUPABASE_STORAGE_TEST_DIR',
} as const satisfies Record<keyof SupabaseStorageTestEnv, string>;

/** Reads the settings from `vars`; throws naming what is missing, and `howToRun` to get it. */
export function readSupabaseStorageSettings(vars: Record<string, string | undefined>, howToRun: string): SupabaseStorageTestEnv {
  const missing = Object.values(NAMES).filter((name) => !vars[name]);
  if (missing.length) {
    throw new Error(`The Supabase Storage test server's settings are missing (${missing.join(', ')}). ${howToRun}`);
  }
  return Object.fromEntries(Object.entries(NAMES).map(([key, name]) => [key, vars[name] as string])) as unknown as SupabaseStorageTestEnv;
}
