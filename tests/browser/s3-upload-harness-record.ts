// What the upload harness page (s3-upload-harness.html) and the test share through localStorage, the way the
// app persists its upload tasks: the job, the last checkpoint, and one record per page load.
import type { UploadCheckpoint } from '../../src/backend/ports';
import type { S3PageTarget } from './s3-browser-files';

export interface HarnessJob {
  target: S3PageTarget;
  key: string;
  size: number;
  seed: number;
}

export interface HarnessSession {
  /** Confirmed parts in the checkpoint this page load started from (0 for a fresh upload). */
  resumedParts: number;
  resumedUploadId: string | null;
  state: 'uploading' | 'done' | 'failed';
  error?: { code: string; message: string };
  /** Part PUTs this page load made, from its own resource timing entries (set when it ends). */
  partPuts?: number;
}

const jobKey = (id: string) => `${id}:job`;
const checkpointKey = (id: string) => `${id}:checkpoint`;
const sessionsKey = (id: string) => `${id}:sessions`;

function readJson<T>(key: string): T | undefined {
  const raw = localStorage.getItem(key);
  return raw === null ? undefined : (JSON.parse(raw) as T);
}

export const harnessRecord = {
  writeJob: (id: string, job: HarnessJob) => localStorage.setItem(jobKey(id), JSON.stringify(job)),
  job: (id: string) => readJson<HarnessJob>(jobKey(id)),
  writeCheckpoint: (id: string, cp: UploadCheckpoint) => localStorage.setItem(checkpointKey(id), JSON.stringify(cp)),
  checkpoint: (id: string) => readJson<UploadCheckpoint>(checkpointKey(id)),
  sessions: (id: string) => readJson<HarnessSession[]>(sessionsKey(id)) ?? [],
  /** Appends a session and returns its index. */
  addSession(id: string, s: HarnessSession): number {
    const all = harnessRecord.sessions(id);
    localStorage.setItem(sessionsKey(id), JSON.stringify([...all, s]));
    return all.length;
  },
  updateSession(id: string, index: number, patch: Partial<HarnessSession>): void {
    const all = harnessRecord.sessions(id);
    all[index] = { ...all[index]!, ...patch };
    localStorage.setItem(sessionsKey(id), JSON.stringify(all));
  },
  clear(id: string): void {
    for (const k of [jobKey(id), checkpointKey(id), sessionsKey(id)]) localStorage.removeItem(k);
  },
};
