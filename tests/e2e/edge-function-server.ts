/**
 * One of our edge functions (supabase/functions/<name>/index.ts) served by real Deno on 127.0.0.1, as the
 * Supabase runtime would run it, with the environment a deployment gives it. Deno comes from npm, with the
 * functions' packages cached under node_modules/.cache/deno as scripts/functions-test.mjs leaves them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

export interface EdgeFunctionServer {
  /** `http://127.0.0.1:<port>`: the function answers every path. */
  url: string;
  stop(): Promise<void>;
}

const denoDir = () => process.env.DENO_DIR || join(root, 'node_modules', '.cache', 'deno');
const cached = new Map<string, Promise<void>>();

/**
 * Fetches a function's dependencies into the Deno cache with this machine's own network settings (a proxy or a
 * certificate authority its environment names), once per function: the function itself then runs with only the
 * environment a deployment gives it, and finds them there.
 */
function cacheDependencies(deno: string, entry: string): Promise<void> {
  let done = cached.get(entry);
  if (!done) {
    done = new Promise<void>((resolve, reject) => {
      const child = spawn(deno, ['cache', '--quiet', '--config', join(root, 'supabase', 'functions', 'deno.json'), entry], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, DENO_DIR: denoDir(), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
      });
      let err = '';
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`deno cache ${entry} failed (${code}): ${err.slice(-2000)}`))));
    });
    cached.set(entry, done);
  }
  return done;
}

export async function startEdgeFunction(name: string, env: Record<string, string>, timeoutMs = 120_000): Promise<EdgeFunctionServer> {
  const deno = join(root, 'node_modules', '.bin', 'deno');
  const entry = join(root, 'supabase', 'functions', name, 'index.ts');
  await cacheDependencies(deno, entry);
  const child: ChildProcess = spawn(deno, ['run', '--allow-all', '--config', join(root, 'supabase', 'functions', 'deno.json'), entry], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DENO_DIR: denoDir(),
      DENO_NO_UPDATE_CHECK: '1',
      NO_COLOR: '1',
      // Deno.serve listens where this says: a free port on loopback.
      DENO_SERVE_ADDRESS: 'tcp:127.0.0.1:0',
      ...env,
    },
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      done();
      child.kill('SIGTERM');
      reject(new Error(`edge function ${name} did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m) {
        done();
        resolve(m[1]!);
      }
    };
    const early = (code: number | null) => {
      done();
      reject(new Error(`edge function ${name} exited (${code}) before listening:\n${output}`));
    };
    const done = () => {
      clearTimeout(timer);
      child.stdout?.off('data', look);
      child.stderr?.off('data', look);
      child.off('exit', early);
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.once('exit', early);
  });
  // What the function logs while the tests run (a database or S3 failure) is worth seeing in the report.
  child.stdout?.on('data', (chunk: Buffer) => process.stdout.write(`[${name}] ${chunk.toString()}`));
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk.toString()}`));
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
