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
export interface StartedS3TestServer extends S3TestServer {
  env: Record<string, string>;
  /** Stops the daemons started from S3_TEST_DIR and deletes the folder. */
  stop(): Promise<void>;
}
/** The bucket no test lists or empties: the filler object that keeps the store from emptying, and the write probe. */
export declare const KEEP: { bucket: string; fillerKey: string; fillerBytes: number; probeKey: string };
export declare function s3TestEnv(server: S3TestServer): Record<string, string>;
export declare function startS3TestServer(): Promise<StartedS3TestServer>;
/** Null when the gateway started from S3_TEST_DIR runs and takes writes, otherwise why not. */
export declare function s3TestServerFault(): Promise<string | null>;
export declare function stopS3TestServer(): Promise<void>;
