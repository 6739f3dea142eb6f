/**
 * Signs through the `storage-sign` edge function: for S3 providers other than Supabase Storage, whose secret
 * must never reach the browser. The function checks the caller's membership and role, then answers presigned
 * URLs valid for at most an hour. Requests made in the same tick share one function call (four parts
 * starting together cost one round trip, a page of thumbnails one call).
 */
import type { FunctionsPort } from '../ports';
import type { S3Signer, SignOp, SignResult } from './s3-signer';

interface Waiting {
  ops: SignOp[];
  resolve: (results: SignResult[]) => void;
  reject: (e: unknown) => void;
}

interface StorageSignAnswer {
  expiresAt: string;
  results: SignResult[];
}

/** The function takes at most this many requests per call. */
const MAX_PER_CALL = 1000;

export class FunctionSigner implements S3Signer {
  private waiting: Waiting[] = [];
  private scheduled = false;

  constructor(private readonly functions: FunctionsPort) {}

  sign(ops: SignOp[]): Promise<SignResult[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ ops, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setTimeout(() => void this.flush(), 0);
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    this.scheduled = false;
    const ops = batch.flatMap((w) => w.ops);
    try {
      const results: SignResult[] = [];
      for (let i = 0; i < ops.length; i += MAX_PER_CALL) {
        const answer = await this.functions.invoke<StorageSignAnswer>('storage-sign', { requests: ops.slice(i, i + MAX_PER_CALL) });
        results.push(...answer.results);
      }
      let at = 0;
      for (const w of batch) {
        w.resolve(results.slice(at, at + w.ops.length));
        at += w.ops.length;
      }
    } catch (e) {
      for (const w of batch) w.reject(e);
    }
  }
}
