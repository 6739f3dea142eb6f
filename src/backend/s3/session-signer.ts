/**
 * Signs S3 requests here, with credentials the browser may hold: on Supabase Storage the user's own session
 * (access key = project ref, secret = the anon key, session token = the user's JWT), so that RLS on
 * `storage.objects` decides what each request may do. The AWS SDK (client-s3 for the commands, the request
 * presigner for SigV4) loads with this module, on first use.
 *
 * The URLs it makes carry the session token: they are used at once by the engine and never shown, stored or
 * logged (errors strip query strings).
 *
 * [Note: Header-signed Create and Complete]
 * Most operations are presigned (the signature in the query string). Supabase Storage's S3 endpoint refuses a
 * presigned CreateMultipartUpload or CompleteMultipartUpload (400 InvalidRequest: its routes require an
 * `Authorization` header), so those two are signed in headers instead: the SDK builds the request as it would
 * send it, the usual signing step signs it with `x-amz-content-sha256: UNSIGNED-PAYLOAD` (the engine sends its
 * own Complete body, whose hash is then not part of the signature, as S3 allows), and the request is handed back
 * instead of being sent. Any S3 server takes either form, so every provider gets the same requests.
 *
 * [Note: Presigning the busy requests directly]
 * `getSignedUrl` runs a command's whole middleware stack (serialising, resolving the endpoint from its rules) to
 * build the request it signs: about 2.3 ms a URL, where signing itself takes 0.08 (Node, 2,000 URLs). Every
 * single PUT, every part and every thumbnail the grid shows needs one, so with path-style addressing (the
 * default) those three build the request here, as the SDK's serialiser would (the same path, query and headers),
 * and hand it to the SDK's own `S3RequestPresigner`: the URL is the one `getSignedUrl` makes (the unit test
 * compares them). Everything else, and virtual-hosted buckets, go through `getSignedUrl`.
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
import { getSignedUrl, S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
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
  /** For path-style addressing: the presigner and the endpoint the busy requests are built on. */
  private readonly direct: { presigner: S3RequestPresigner; endpoint: URL } | null;

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
    this.direct =
      (config.forcePathStyle ?? true)
        ? { presigner: new S3RequestPresigner({ ...this.client.config, region: () => Promise.resolve(config.region), signingName: 's3' }), endpoint: new URL(config.endpoint) }
        : null;
  }

  /**
   * A URL for a request on an object, presigned without the command stack. See [Note: Presigning the busy requests directly].
   */
  private async presignDirect(
    method: 'PUT' | 'GET',
    key: string,
    query: Record<string, string>,
    headers: Record<string, string>,
    options: { expiresIn: number; signingDate: Date },
  ): Promise<string> {
    const { presigner, endpoint } = this.direct!;
    const path = `${endpoint.pathname.replace(/\/+$/, '')}/${encodeRfc3986(this.config.bucket)}/${key.split('/').map(encodeRfc3986).join('/')}`;
    const signed = await presigner.presign(
      {
        method,
        protocol: endpoint.protocol,
        hostname: endpoint.hostname,
        ...(endpoint.port ? { port: Number(endpoint.port) } : {}),
        path,
        query,
        headers: { ...headers },
      } as never,
      { ...options, signableHeaders: new Set(Object.keys(headers)), signingRegion: this.config.region, signingService: 's3' },
    );
    return urlOf(signed as unknown as HttpRequestLike);
  }

  adjustClock(serverTimeMs: number): void {
    this.offsetMs = serverTimeMs - Date.now();
    // Header signing (signedInHeaders) takes the SDK's own clock correction.
    this.client.config.systemClockOffset = this.offsetMs;
  }

  /** The request `command` would send, signed in its headers rather than its URL. See [Note: Header-signed Create and Complete]. */
  private async signedInHeaders(command: SignableCommand, method: 'POST', headers: Record<string, string>): Promise<SignedRequest> {
    const stack = this.client.middlewareStack.clone();
    let signed: HttpRequestLike | undefined;
    stack.addRelativeTo(
      ((next: (args: { request: unknown }) => Promise<unknown>) => (args: { request: unknown }) => {
        const req = args.request as HttpRequestLike;
        for (const name of Object.keys(req.headers)) {
          // The SDK's bookkeeping, the body's own headers and what a browser sets itself are left unsigned.
          if (UNSIGNED_HEADERS.has(name.toLowerCase())) delete req.headers[name];
        }
        req.body = undefined;
        Object.assign(req.headers, headers, { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' });
        return next(args);
      }) as never,
      { name: 'shoeboxPrepareHeaderSigning', relation: 'before', toMiddleware: 'awsAuthMiddleware', override: true },
    );
    stack.addRelativeTo(
      (() => (args: { request: unknown }) => {
        signed = args.request as HttpRequestLike;
        return Promise.resolve({ response: {}, output: { $metadata: {} } });
      }) as never,
      { name: 'shoeboxCaptureSignedRequest', relation: 'after', toMiddleware: 'awsAuthMiddleware', override: true },
    );
    const handler = command.resolveMiddleware(stack as never, this.client.config, {});
    await handler({ input: command.input } as never);
    if (!signed) throw new Error('The request was not signed.');
    const sent: Record<string, string> = {};
    for (const [name, value] of Object.entries(signed.headers)) if (name.toLowerCase() !== 'host') sent[name.toLowerCase()] = value;
    return { method, url: urlOf(signed), headers: sent };
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
        if (this.direct) return { method: 'PUT', url: await this.presignDirect('PUT', Key, { 'x-id': 'PutObject' }, headers, o), headers };
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
        const command = new CreateMultipartUploadCommand({ Bucket, Key, ContentType: op.contentType, ...(op.contentDisposition ? { ContentDisposition: op.contentDisposition } : {}) });
        return this.signedInHeaders(command, 'POST', typed(op.contentType, op.contentDisposition));
      }
      case 'part': {
        const headers: Record<string, string> = op.contentMd5 ? { 'content-md5': op.contentMd5 } : {};
        if (this.direct) {
          const query = { partNumber: String(op.partNumber), uploadId: op.uploadId, 'x-id': 'UploadPart' };
          return { method: 'PUT', url: await this.presignDirect('PUT', Key, query, headers, o), headers };
        }
        const command = new UploadPartCommand({ Bucket, Key, UploadId: op.uploadId, PartNumber: op.partNumber, ...(op.contentMd5 ? { ContentMD5: op.contentMd5 } : {}) });
        return { method: 'PUT', url: await getSignedUrl(c, command, { ...o, signableHeaders: new Set(Object.keys(headers)) }), headers };
      }
      case 'complete':
        // Supabase Storage reads the body only when it is typed as XML.
        return this.signedInHeaders(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: op.uploadId }), 'POST', { 'content-type': 'application/xml' });
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
        if (this.direct) {
          const query = { 'response-content-disposition': served.responseDisposition, 'response-content-type': served.responseType, 'x-id': 'GetObject' };
          return { method: 'GET', url: await this.presignDirect('GET', Key, query, {}, o), headers: {} };
        }
        const command = new GetObjectCommand({ Bucket, Key, ResponseContentType: served.responseType, ResponseContentDisposition: served.responseDisposition });
        return { method: 'GET', url: await getSignedUrl(c, command, o), headers: {} };
      }
      case 'delete':
        return { method: 'DELETE', url: await getSignedUrl(c, new DeleteObjectCommand({ Bucket, Key }), o), headers: {} };
    }
  }
}

type SignableCommand = CreateMultipartUploadCommand | CompleteMultipartUploadCommand;

/** The parts of the SDK's HttpRequest this module reads. */
interface HttpRequestLike {
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  query: Record<string, string | string[] | null>;
  headers: Record<string, string>;
  body?: unknown;
}

const UNSIGNED_HEADERS = new Set(['amz-sdk-invocation-id', 'amz-sdk-request', 'x-amz-user-agent', 'user-agent', 'content-length', 'content-md5', 'expect']);

/** RFC 3986 encoding, as SigV4's canonical query string has it. */
function encodeRfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

function urlOf(req: HttpRequestLike): string {
  const query = Object.entries(req.query)
    .flatMap(([name, value]) => (Array.isArray(value) ? value.map((v) => [name, v] as const) : [[name, value] as const]))
    .map(([name, value]) => (value === null ? encodeRfc3986(name) : `${encodeRfc3986(name)}=${encodeRfc3986(value)}`))
    .join('&');
  const port = req.port ? `:${req.port}` : '';
  return `${req.protocol}//${req.hostname}${port}${req.path}${query ? `?${query}` : ''}`;
}
