// A page that uploads one file the way the app's upload engine does: on load it takes the persisted job and
// checkpoint from localStorage and starts or resumes the upload, storing each new checkpoint as it comes.
// The test reloads this page mid-upload; everything of the previous load (XHRs, JS state) is gone by then.
import { isAppError } from '../../src/lib/app-error';
import { pageFiles, sampleBytes } from './s3-browser-files';
import { harnessRecord } from './s3-upload-harness-record';

const id = new URLSearchParams(location.search).get('job');
const job = id ? harnessRecord.job(id) : undefined;
const stateEl = document.getElementById('state')!;

function partPutsMade(): number {
  // UploadPart URLs carry `partNumber=`; ListParts and CompleteMultipartUpload do not.
  return performance.getEntriesByType('resource').filter((e) => e.name.includes('partNumber=')).length;
}

if (!id || !job) {
  stateEl.textContent = 'no job';
} else {
  const checkpoint = harnessRecord.checkpoint(id);
  const session = harnessRecord.addSession(id, {
    resumedParts: checkpoint?.parts?.length ?? 0,
    resumedUploadId: checkpoint?.uploadId ?? null,
    state: 'uploading',
  });
  stateEl.textContent = 'uploading';
  // The same bytes on every load, as the app reads the same file again after a reload.
  const blob = new Blob([sampleBytes(job.size, job.seed)], { type: 'video/mp4' });
  pageFiles(job.target)
    .upload(
      { key: job.key, blob, contentType: 'video/mp4', filename: 'clip.mp4', ...(checkpoint ? { checkpoint } : {}) },
      { onCheckpoint: (cp) => harnessRecord.writeCheckpoint(id, cp) },
    )
    .then(
      () => {
        harnessRecord.updateSession(id, session, { state: 'done', partPuts: partPutsMade() });
        stateEl.textContent = 'done';
      },
      (e: unknown) => {
        const error = isAppError(e) ? { code: e.code, message: e.message } : { code: 'unexpected', message: String(e) };
        harnessRecord.updateSession(id, session, { state: 'failed', error, partPuts: partPutsMade() });
        stateEl.textContent = 'failed';
      },
    );
}
