// The privacy tests read and write photographs' metadata with ExifTool (Debian: libimage-exiftool-perl).
// Installs it with apt-get when it is missing and we are root; otherwise says what to install.
import { spawnSync } from 'node:child_process';

export function hasExiftool() {
  return spawnSync('exiftool', ['-ver'], { encoding: 'utf8' }).status === 0;
}

export function ensureExiftool() {
  if (hasExiftool()) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) throw new Error('ExifTool not found. Install it (Debian: sudo apt-get install -y libimage-exiftool-perl).');
  console.log('Installing ExifTool from Debian packages…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', 'libimage-exiftool-perl']]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${r.status})`);
  }
  if (!hasExiftool()) throw new Error('ExifTool still not found after installing.');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureExiftool();
  console.log(spawnSync('exiftool', ['-ver'], { encoding: 'utf8' }).stdout.trim());
}
