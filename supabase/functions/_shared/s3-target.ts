/**
 * The bucket the functions talk to, from S3_ENDPOINT, S3_REGION, S3_BUCKET, S3_ACCESS_KEY_ID,
 * S3_SECRET_ACCESS_KEY and S3_FORCE_PATH_STYLE. Supabase Storage speaks S3 too (with access keys made in its
 * dashboard), so one code path serves every provider.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { ConfigError, type Env, required } from './config-error.ts';

export interface S3Settings {
  /** The provider's endpoint; absent for AWS S3 itself. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export interface S3Target {
  client: S3Client;
  bucket: string;
  settings: S3Settings;
}

export function s3SettingsFromEnv(env: Env): S3Settings {
  const endpoint = env.S3_ENDPOINT?.trim() || undefined;
  const pathStyle = env.S3_FORCE_PATH_STYLE?.trim() || 'false';
  if (pathStyle !== 'true' && pathStyle !== 'false') throw new ConfigError('S3_FORCE_PATH_STYLE must be true or false');
  if (endpoint && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(endpoint)) throw new ConfigError('S3_ENDPOINT must be an http(s) URL');
  return {
    ...(endpoint ? { endpoint } : {}),
    region: required(env, 'S3_REGION'),
    bucket: required(env, 'S3_BUCKET'),
    accessKeyId: required(env, 'S3_ACCESS_KEY_ID'),
    secretAccessKey: required(env, 'S3_SECRET_ACCESS_KEY'),
    forcePathStyle: pathStyle === 'true',
  };
}

export function s3FromEnv(env: Env): S3Target {
  const settings = s3SettingsFromEnv(env);
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Newer SDKs add CRC32 checksums by default, which several S3-compatible providers reject.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return { client, bucket: settings.bucket, settings };
}
