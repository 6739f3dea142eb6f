/**
 * The files port of a Supabase deployment, on the S3 engine (src/backend/s3):
 * - Supabase Storage: S3 requests signed here with the user's own session (access key = project ref, secret =
 *   anon key, session token = the access token), so RLS on `storage.objects` decides; images are shown through
 *   Storage's batch signing (`createSignedUrls`), whose URLs name one object each and carry no session token.
 * - Any other S3 provider: the `storage-sign` edge function signs, after checking membership and role.
 * Without a storage setting, every call says file storage is not configured.
 *
 * [Note: Safe types on Supabase Storage]
 * Storage's signed URLs cannot override the type an object is served with: its `download` option only adds
 * `Content-Disposition: attachment` (used for downloads). What keeps a page from being rendered there is the
 * type each object was stored with: the uploader sends only types from content-types.ts (other originals as
 * application/octet-stream), and the bucket's allowed_mime_types (a migration) makes Storage refuse any other
 * type, whoever signs the upload. GETs signed here with the session (reads) name a safe type themselves.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { limits, type StorageConfig } from '../../config';
import { AppError, type ErrorCode } from '../../lib/app-error';
import type { FilesPort, FunctionsPort, UrlOptions } from '../ports';
import { FunctionSigner } from '../s3/function-signer';
import { lazySigner } from '../s3/lazy-signer';
import { S3Files } from '../s3/s3-files';
import { SupabaseFilesPending } from './supabase-files-pending';

type StoredAnswer = { key: string; bytes: number } | { key: string; error: ErrorCode };

/** storage-sign looks in the bucket and records the original's size, which finishing the upload needs. */
async function confirmStored(functions: FunctionsPort, key: string, signal: AbortSignal | undefined): Promise<void> {
  const answer = await functions.invoke<{ stored: StoredAnswer[] }>('storage-sign', { stored: [key] }, signal ? { signal } : {});
  const one = answer.stored?.[0];
  if (one && 'bytes' in one) return;
  const code = one?.error ?? 'backend/unreachable';
  throw new AppError(code, code === 'upload/interrupted' ? 'The storage does not have the whole file yet.' : 'The storage could not confirm the upload.', { retryable: code === 'upload/interrupted' || code === 'backend/unreachable' });
}

/** The project ref: the first label of `<ref>.supabase.co` (self-hosted setups name it in config). */
export function projectRefOf(url: string, configured?: string): string {
  if (configured) return configured;
  const host = new URL(url).hostname;
  const m = /^([a-z0-9-]+)\.supabase\.(co|in|net)$/.exec(host);
  if (!m) throw new AppError('storage/denied', 'Set storage.projectRef in config.json: the Supabase address does not name the project.', { retryable: false });
  return m[1]!;
}

export function createSupabaseFiles(client: SupabaseClient, url: string, anonKey: string, functions: FunctionsPort, storage: StorageConfig | undefined): FilesPort {
  if (!storage) return new SupabaseFilesPending();
  if (storage.provider === 's3') return new S3Files({ signer: new FunctionSigner(functions), confirmStored: (key, signal) => confirmStored(functions, key, signal) });
  const signer = lazySigner(async () => {
    const { SessionSigner } = await import('../s3/session-signer');
    return new SessionSigner({
      endpoint: `${url}/storage/v1/s3`,
      region: storage.region,
      bucket: storage.bucket,
      expiresIn: limits().presignedUrlSeconds,
      credentials: async () => {
        const { data } = await client.auth.getSession();
        const session = data.session;
        if (!session) throw new AppError('auth/session-expired', 'Sign in again to upload.', { retryable: false });
        return {
          accessKeyId: projectRefOf(url, storage.projectRef),
          secretAccessKey: anonKey,
          sessionToken: session.access_token,
          ...(session.expires_at ? { expiration: new Date(session.expires_at * 1000) } : {}),
        };
      },
    });
  });
  const urls = async (keys: string[], opts: UrlOptions): Promise<Map<string, string>> => {
    // The download name is added here, not through the `download` option: supabase-js puts that through
    // URLSearchParams and then encodeURI, so `Été.jpg` arrived as `%C3%89t…` encoded a second time (`%25C3…`).
    const { data, error } = await client.storage.from(storage.bucket).createSignedUrls(keys, opts.expiresIn ?? limits().presignedUrlSeconds);
    if (error) throw new AppError('storage/denied', `Storage would not sign the links: ${error.message}`, { cause: error });
    const out = new Map<string, string>();
    for (const entry of data ?? []) {
      if (entry.path && entry.signedUrl && !entry.error) out.set(entry.path, opts.downloadAs === undefined ? entry.signedUrl : withDownloadName(entry.signedUrl, opts.downloadAs));
    }
    return out;
  };
  return new S3Files({ signer, urls, contentMd5: false, explainMissing: (key, signal) => missingObjectError(client, key, signal) });
}

/** A signed Storage URL that downloads under `name`: Storage sends it as `Content-Disposition: attachment`. */
export function withDownloadName(signedUrl: string, name: string): string {
  // encodeURIComponent rather than URLSearchParams, whose `+` for a space not every query parser reads as one.
  return `${signedUrl}${signedUrl.includes('?') ? '&' : '?'}download=${encodeURIComponent(name)}`;
}

/**
 * Storage answers 404 both for an object that is gone and for one Row Level Security hides (a non-member's read).
 * Which one it was is told by the album: a person who cannot see it learns nothing more than a non-member of any
 * album does (`album/not-found`); a member is told the file is gone.
 */
async function missingObjectError(client: SupabaseClient, key: string, signal: AbortSignal | undefined): Promise<AppError> {
  const albumId = /^albums\/([0-9a-f-]{36})\//i.exec(key)?.[1];
  let query = client.from('albums').select('id').eq('id', albumId ?? '00000000-0000-0000-0000-000000000000');
  if (signal) query = query.abortSignal(signal);
  const { data, error } = await query.maybeSingle();
  if (!error && data) return new AppError('item/not-found', 'Storage has no such file: it may have been deleted.', { retryable: false });
  if (error) throw new AppError('backend/unreachable', 'Could not tell whether the file is gone.', { cause: error, retryable: true });
  return new AppError('album/not-found', 'This album does not exist, or you do not have access to it.', { retryable: false });
}
