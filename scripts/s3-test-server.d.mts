export interface S3TestServer {
  endpoint: string;
  region: string;
  bucket: string;
  bucketNoCors: string;
  bucketNoEtag: string;
  accessKeyId: string;
  secretAccessKey: string;
  quotaBucket: string;
  quotaAccessKeyId: string;
  quotaSecretAccessKey: string;
}
export declare function s3TestEnv(server: S3TestServer): Record<string, string>;
export declare function startS3TestServer(): Promise<S3TestServer & { env: Record<string, string>; stop(): Promise<void> }>;
export declare function stopS3TestServer(): Promise<void>;
