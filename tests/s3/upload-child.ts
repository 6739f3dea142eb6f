// One upload run in its own process, as a browser tab would run it: resumes from the checkpoint file, stores
// every new checkpoint there atomically (as the app stores it with the task), and prints "done" at the end.
// The interruption test kills this process at random points. Settings come from the environment.
import { existsSync, openAsBlob, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { UploadCheckpoint } from '../../src/backend/ports';
import { S3Files } from '../../src/backend/s3/s3-files';
import { sendS3, type S3Send } from '../../src/backend/s3/s3-http';
import { SessionSigner } from '../../src/backend/s3/session-signer';

const env = process.env as Record<string, string>;
const checkpointFile = env.CHILD_CHECKPOINT_FILE!;

/** Says "part <n>" for each part the bucket confirmed, so a test can tell what a run sent. */
const reportingParts: S3Send = async (req, opts) => {
  const res = await sendS3(req, opts);
  const part = new URL(req.url).searchParams.get('partNumber');
  if (part && req.method === 'PUT' && res.status >= 200 && res.status < 300) process.stdout.write(`part ${part}\n`);
  return res;
};

// The test gateway's keys by default; a Supabase Storage member's session when CHILD_SESSION_TOKEN is given.
const files = new S3Files({
  signer: new SessionSigner({
    endpoint: env.CHILD_ENDPOINT!,
    region: env.CHILD_REGION ?? env.S3_TEST_REGION!,
    bucket: env.CHILD_BUCKET ?? env.S3_TEST_BUCKET!,
    credentials: async () => ({
      accessKeyId: env.CHILD_ACCESS_KEY_ID ?? env.S3_TEST_ACCESS_KEY_ID!,
      secretAccessKey: env.CHILD_SECRET_ACCESS_KEY ?? env.S3_TEST_SECRET_ACCESS_KEY!,
      ...(env.CHILD_SESSION_TOKEN ? { sessionToken: env.CHILD_SESSION_TOKEN } : {}),
    }),
  }),
  // Supabase Storage takes no Content-MD5 (the app leaves it out there).
  ...(env.CHILD_SESSION_TOKEN ? { contentMd5: false } : {}),
  send: reportingParts,
  retry: { policy: { retries: 10, baseMs: 20, maxMs: 300 } },
});

const checkpoint = existsSync(checkpointFile) ? (JSON.parse(readFileSync(checkpointFile, 'utf8')) as UploadCheckpoint) : undefined;
const blob = await openAsBlob(env.CHILD_FILE!);
process.stdout.write('started\n');
await files.upload(
  { key: env.CHILD_KEY!, blob, contentType: 'video/mp4', ...(checkpoint ? { checkpoint } : {}) },
  {
    onCheckpoint: (c) => {
      writeFileSync(`${checkpointFile}.tmp`, JSON.stringify(c));
      renameSync(`${checkpointFile}.tmp`, checkpointFile);
    },
  },
);
process.stdout.write('done\n');
