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

export function resetLimits(): void {
  current = { ...DEFAULT_LIMITS };
}

/** Which backend to talk to, decided once at start-up. */
export type BackendConfig =
  | { kind: 'local' }
  | { kind: 'supabase'; url: string; anonKey: string; oauthProviders?: string[] };

export function backendConfigFromEnv(env: Record<string, string | undefined>): BackendConfig {
  const url = env.VITE_SUPABASE_URL?.trim();
  const anonKey = env.VITE_SUPABASE_ANON_KEY?.trim();
  if (url && anonKey) {
    const oauthProviders = (env.VITE_SUPABASE_OAUTH_PROVIDERS ?? '').split(',').map((p) => p.trim()).filter(Boolean);
    return { kind: 'supabase', url, anonKey, oauthProviders };
  }
  return { kind: 'local' };
}
