// The Supabase Storage test server's coordinates inside the browser: vite.config.ts passes the
// SUPABASE_STORAGE_TEST_* variables (`npm test` exports them after starting scripts/supabase-storage-test-server.mjs)
// to the browser project with `provide`.
import { inject } from 'vitest';
import { readSupabaseStorageSettings, type SupabaseStorageTestEnv } from '../s3/supabase-storage-settings';

declare module 'vitest' {
  interface ProvidedContext {
    /** The SUPABASE_STORAGE_TEST_* environment variables of the process that started Vitest. */
    supabaseStorageTest: Record<string, string | undefined>;
  }
}

/** Reads the provided SUPABASE_STORAGE_TEST_* settings; throws naming what is missing and how to get it. */
export function supabaseStorageBrowserEnv(): SupabaseStorageTestEnv {
  return readSupabaseStorageSettings(
    inject('supabaseStorageTest') ?? {},
    'Run the browser suite with `node scripts/test.mjs browser`, or start the server with `DATABASE_URL=… node scripts/supabase-storage-test-server.mjs` and export the lines it prints before `npx vitest run --project browser`.',
  );
}
