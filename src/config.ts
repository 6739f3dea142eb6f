/**
 * Business constants and limits (PRODUCT.md §9), in one place. Each can be overridden at start-up by
 * `overrideLimits` (from config.json or tests).
 */
export interface Limits {
  thumbLongEdge: number;
  previewLongEdge: number;
  thumbQuality: number;
  previewQuality: number;
  maxDecodePixels: number;
  maxDecodeSide: number;
  maxUploadBytes: number;
  partSize: number;
  maxParts: number;
  partsInFlight: number;
  filesInFlight: number;
  singlePutMaxBytes: number;
  presignedUrlSeconds: number;
  inviteDays: number;
  trashDays: number;
  maxItemsPerAlbum: number;
  maxFilesPerBatch: number;
  titleMax: number;
  descriptionMax: number;
  displayNameMax: number;
  commentMax: number;
  sharePasswordMin: number;
  sharePasswordMax: number;
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  thumbLongEdge: 480,
  previewLongEdge: 2048,
  thumbQuality: 0.8,
  previewQuality: 0.85,
  maxDecodePixels: 100_000_000,
  maxDecodeSide: 30_000,
  maxUploadBytes: 20 * GiB,
  partSize: 8 * MiB,
  maxParts: 10_000,
  partsInFlight: 4,
  filesInFlight: 3,
  singlePutMaxBytes: 16 * MiB,
  presignedUrlSeconds: 3600,
  inviteDays: 7,
  trashDays: 30,
  maxItemsPerAlbum: 1_000_000,
  maxFilesPerBatch: 10_000,
  titleMax: 120,
  descriptionMax: 2000,
  displayNameMax: 60,
  commentMax: 2000,
  sharePasswordMin: 8,
  sharePasswordMax: 128,
});

let current: Limits = { ...DEFAULT_LIMITS };

export function limits(): Readonly<Limits> {
  return current;
}

export function overrideLimits(patch: Partial<Limits>): void {
  current = { ...current, ...patch };
}

/**
 * Where a Supabase deployment keeps its files (PRODUCT.md §7):
 * - `supabase`: Supabase Storage's S3 endpoint, signed in the browser with the user's session (RLS decides);
 *   `region` is the project's region, which S3 signatures name.
 * - `s3`: any other S3-compatible provider, through the `storage-sign` edge function (it holds the secret).
 */
export type StorageConfig = { provider: 'supabase'; region: string; bucket: string; projectRef?: string } | { provider: 's3' };

/** Which backend to talk to, decided once at start-up. */
export type BackendConfig =
  | { kind: 'local' }
  | { kind: 'supabase'; url: string; anonKey: string; oauthProviders?: string[]; storage?: StorageConfig };

export const DEFAULT_BUCKET = 'shoebox';

export function storageConfigFromEnv(env: Record<string, string | undefined>): StorageConfig | undefined {
  const provider = env.VITE_STORAGE_PROVIDER?.trim();
  if (provider === 's3') return { provider: 's3' };
  if (provider === 'supabase') {
    const region = env.VITE_STORAGE_REGION?.trim() ?? '';
    const projectRef = env.VITE_STORAGE_PROJECT_REF?.trim();
    return { provider: 'supabase', region, bucket: env.VITE_STORAGE_BUCKET?.trim() || DEFAULT_BUCKET, ...(projectRef ? { projectRef } : {}) };
  }
  return undefined;
}

export function backendConfigFromEnv(env: Record<string, string | undefined>): BackendConfig {
  const url = env.VITE_SUPABASE_URL?.trim();
  const anonKey = env.VITE_SUPABASE_ANON_KEY?.trim();
  if (url && anonKey) {
    const oauthProviders = (env.VITE_SUPABASE_OAUTH_PROVIDERS ?? '').split(',').map((p) => p.trim()).filter(Boolean);
    const storage = storageConfigFromEnv(env);
    return { kind: 'supabase', url, anonKey, oauthProviders, ...(storage ? { storage } : {}) };
  }
  return { kind: 'local' };
}
