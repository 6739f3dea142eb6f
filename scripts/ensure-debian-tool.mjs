// Command-line tools the tests and benchmarks run (ExifTool, libheif's heif-enc), installed from Debian's
// packages with apt-get when missing and we are root; otherwise the error says what to install.
import { spawnSync } from 'node:child_process';

/** Whether `command probeArgs…` runs (any exit status but "not found"). */
export function hasTool(command, probeArgs) {
  const r = spawnSync(command, probeArgs, { encoding: 'utf8' });
  return !r.error;
}

export function ensureDebianTool(command, probeArgs, pkg) {
  if (hasTool(command, probeArgs)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) throw new Error(`${command} not found. Install it (Debian: sudo apt-get install -y ${pkg}).`);
  console.log(`Installing ${command} from Debian packages (${pkg})…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', pkg]]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${r.status})`);
  }
  if (!hasTool(command, probeArgs)) throw new Error(`${command} still not found after installing ${pkg}.`);
}
