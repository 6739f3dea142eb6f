export interface SupabaseStorageTestServer {
  /** The gateway's base: storage is at `<url>/storage/v1`, its S3 endpoint at `<url>/storage/v1/s3`. */
  url: string;
  /** The database the server runs on (a superuser's URL). */
  databaseUrl: string;
  jwtSecret: string;
  anonKey: string;
  serviceKey: string;
  /** The project ref: the access key id of S3 requests signed with a user's session. */
  tenantId: string;
  region: string;
  bucket: string;
  /** The project's S3 access keys (service role), as made under Storage → S3 Connection. */
  s3AccessKeyId: string;
  s3SecretAccessKey: string;
  /** The server itself, without the gateway (no `/storage/v1` prefix, no CORS). */
  serverUrl: string;
  /** The folder of its state and logs, for `stop` from another process (SUPABASE_STORAGE_TEST_DIR). */
  dir: string;
}
export interface StartedSupabaseStorage extends SupabaseStorageTestServer {
  env: Record<string, string>;
  stop(): Promise<void>;
}
/** An HS256 JWT signed with `secret`. */
export declare function mintJwt(claims: Record<string, unknown>, secret: string): string;
export declare function supabaseStorageTestEnv(server: SupabaseStorageTestServer): Record<string, string>;
export declare function prepareSupabaseStorage(): Promise<{ dir: string; node: string }>;
export declare function startSupabaseStorage(): Promise<StartedSupabaseStorage>;
export declare function stopSupabaseStorage(): Promise<void>;
/** Null when the server and its gateway run and answer, otherwise why not. */
export declare function supabaseStorageFault(): Promise<string | null>;
