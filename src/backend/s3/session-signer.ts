/**
 * Signs S3 requests here, with credentials the browser may hold: on Supabase Storage the user's own session
 * (access key = project ref, secret = the anon key, session token = the user's JWT), so that RLS on
 * `storage.objects` decides what each request may do. The AWS SDK (client-s3 for the commands, the request
 * presigner for SigV4) loads with this module, on first use.
 *
 * The URLs it makes carry the session token: they are used at once by the engine and never shown, stored or
 * logged (errors strip query strings).
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { servedAs } from './content-disposition';
import type { S3Signer, SignedRequest, SignOp, SignResult } from './s3-signer';

export interface SessionCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** When the session token stops working (the JWT's `exp`): the SDK asks for fresh credentials after it. */
  expiration?: Date;
}

export interface SessionSignerConfig {
  endpoint: string;
  region: string;
  bucket: string;
  forcePathStyle?: boolean;
  credentials: () => Promise<SessionCredentials>;
  /** Seconds a URL stays valid (PRODUCT.md §9: at most one hour). */
  expiresIn?: number;
}

export class SessionSigner implements S3Signer {
  private readonly client: S3Client;
  private offsetMs = 0;

  constructor(private readonly config: SessionSignerConfig) {
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle ?? true,
      credentials: () => config.credentials(),
      // Newer SDKs add CRC32 checksums by default, which S3-compatible providers may reject.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  adjustClock(serverTimeMs: number): void {
    this.offsetMs = serverTimeMs - Date.now();
  }

  async sign(ops: SignOp[]): Promise<SignResult[]> {
    return Promise.all(ops.map((op) => this.signOne(op)));
  }

  private async signOne(op: SignOp): Promise<SignedRequest> {
    const Bucket = this.config.bucket;
    const Key = op.key;
    const expiresIn = Math.min(3600, this.config.expiresIn ?? 3600);
    const signingDate = new Date(Date.now() + this.offsetMs);
    const o = { expiresIn, signingDate };
    const c = this.client;
    const typed = (contentType: string, disposition: string | undefined, md5?: string) => ({
      'content-type': contentType,
      ...(disposition ? { 'content-disposition': disposition } : {}),
      ...(md5 ? { 'content-md5': md5 } : {}),
    });
    switch (op.op) {
      case 'put': {
        const headers = typed(op.contentType, op.contentDisposition, op.contentMd5);
        const command = new PutObjectCommand({
          Bucket,
          Key,
          ContentType: op.contentType,
          ...(op.contentDisposition ? { ContentDisposition: op.contentDisposition } : {}),
          ...(op.contentMd5 ? { ContentMD5: op.contentMd5 } : {}),
        });
        return { method: 'PUT', url: await getSignedUrl(c, command, { ...o, signableHeaders: new Set(Object.keys(headers)) }), headers };
      }
      case 'create': {
        const headers = typed(op.contentType, op.contentDisposition);
        const command = new CreateMultipartUploadCommand({ Bucket, Key, ContentType: op.contentType, ...(op.contentDisposition ? { ContentDisposition: op.contentDisposition } : {}) });
        return { method: 'POST', url: await getSignedUrl(c, command, { ...o, signableHeaders: new Set(Object.keys(headers)) }), headers };
      }
      case 'part': {
        const command = new UploadPartCommand({ Bucket, Key, UploadId: op.uploadId, PartNumber: op.partNumber, ...(op.contentMd5 ? { ContentMD5: op.contentMd5 } : {}) });
        const headers: Record<string, string> = op.contentMd5 ? { 'content-md5': op.contentMd5 } : {};
        return { method: 'PUT', url: await getSignedUrl(c, command, { ...o, signableHeaders: new Set(Object.keys(headers)) }), headers };
      }
      case 'complete':
        return { method: 'POST', url: await getSignedUrl(c, new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: op.uploadId }), o), headers: {} };
      case 'abort':
        return { method: 'DELETE', url: await getSignedUrl(c, new AbortMultipartUploadCommand({ Bucket, Key, UploadId: op.uploadId }), o), headers: {} };
      case 'list-parts':
        return {
          method: 'GET',
          url: await getSignedUrl(c, new ListPartsCommand({ Bucket, Key, UploadId: op.uploadId, ...(op.partNumberMarker ? { PartNumberMarker: String(op.partNumberMarker) } : {}) }), o),
          headers: {},
        };
      case 'list-uploads':
        return { method: 'GET', url: await getSignedUrl(c, new ListMultipartUploadsCommand({ Bucket, Prefix: Key }), o), headers: {} };
      case 'head':
        return { method: 'HEAD', url: await getSignedUrl(c, new HeadObjectCommand({ Bucket, Key }), o), headers: {} };
      case 'get': {
        // Always names the type and disposition, so that no stored type (whatever put it there) is rendered.
        const served = servedAs(Key, op.downloadAs);
        const command = new GetObjectCommand({ Bucket, Key, ResponseContentType: served.responseType, ResponseContentDisposition: served.responseDisposition });
        return { method: 'GET', url: await getSignedUrl(c, command, o), headers: {} };
      }
      case 'delete':
        return { method: 'DELETE', url: await getSignedUrl(c, new DeleteObjectCommand({ Bucket, Key }), o), headers: {} };
    }
  }
}
