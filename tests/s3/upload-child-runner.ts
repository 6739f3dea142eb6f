// Runs tests/s3/upload-child.ts in processes of their own, which a test kills as a crash would stop a tab.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('../..', import.meta.url).pathname;

/** Bundles the child (the SDK included) into one file, so that each restarted process starts quickly. */
export async function buildUploadChild(): Promise<string> {
  const child = join(root, 'node_modules', '.cache', 'shoebox-tests', 'upload-child.mjs');
  await build({
    entryPoints: [join(root, 'tests/s3/upload-child.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: child,
    logLevel: 'error',
    // The SDK's CommonJS parts require Node's built-ins.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return child;
}

export interface ChildRun {
  process: ChildProcess;
  started: Promise<void>;
  done: Promise<void>;
  exited: Promise<void>;
  /** The part numbers the bucket confirmed to this run so far. */
  parts(): number[];
}

export function startChild(script: string, env: NodeJS.ProcessEnv): ChildRun {
  const p = spawn(process.execPath, ['--no-warnings', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let onStarted!: () => void;
  let onDone!: () => void;
  let onFail!: (e: Error) => void;
  const started = new Promise<void>((r) => (onStarted = r));
  const done = new Promise<void>((r, j) => {
    onDone = r;
    onFail = j;
  });
  done.catch(() => undefined);
  p.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.includes('started')) onStarted();
    if (out.includes('done')) onDone();
  });
  p.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) =>
    p.on('exit', (code, signal) => {
      onStarted();
      if (signal !== 'SIGKILL' && !out.includes('done')) onFail(new Error(`upload process exited (${code}): ${err.slice(-2000)}`));
      r();
    }),
  );
  const parts = () => [...out.matchAll(/^part (\d+)$/gm)].map((m) => Number(m[1]));
  return { process: p, started, done, exited, parts };
}
