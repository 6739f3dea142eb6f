/**
 * Multipart uploads nobody finished (a closed tab, a crash, an album deleted mid-upload) keep their parts,
 * and the bill, until aborted. Uploads started more than 24 hours before `now` are aborted: a live upload
 * resumes from the parts it has within that time, and after it, the client starts a new upload.
 */
import { AbortMultipartUploadCommand, ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import type { S3Target } from '../_shared/s3-target.ts';

export const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;

export async function abortStaleUploads(s3: S3Target, now: Date, prefix: string, pageSize = 1000): Promise<number> {
  const cutoff = now.getTime() - STALE_UPLOAD_MS;
  let aborted = 0;
  let KeyMarker: string | undefined;
  let UploadIdMarker: string | undefined;
  for (;;) {
    const page = await s3.client.send(new ListMultipartUploadsCommand({
      Bucket: s3.bucket,
      Prefix: prefix,
      MaxUploads: pageSize,
      ...(KeyMarker ? { KeyMarker } : {}),
      ...(UploadIdMarker ? { UploadIdMarker } : {}),
    }));
    for (const upload of page.Uploads ?? []) {
      if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated.getTime() >= cutoff) continue;
      try {
        await s3.client.send(new AbortMultipartUploadCommand({ Bucket: s3.bucket, Key: upload.Key, UploadId: upload.UploadId }));
        aborted++;
      } catch (e) {
        // Finished or aborted since it was listed: nothing left to do.
        if ((e as { name?: string }).name !== 'NoSuchUpload') throw e;
      }
    }
    if (!page.IsTruncated || (!page.NextKeyMarker && !page.NextUploadIdMarker)) return aborted;
    KeyMarker = page.NextKeyMarker;
    UploadIdMarker = page.NextUploadIdMarker;
  }
}
