// Real photographs for the screenshots and the benchmarks that need them: Debian's mate-backgrounds package,
// installed from Debian's packages when missing (as root; otherwise it says how).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

// The package's photographs; its other folders hold drawn patterns, logos and a painting.
export const photoDir = '/usr/share/backgrounds/mate/nature';

export function ensureMateBackgrounds() {
  if (existsSync(photoDir)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) throw new Error('The photographs are missing. Install them (Debian: sudo apt-get install -y mate-backgrounds).');
  console.log('Installing mate-backgrounds from Debian packages…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', 'mate-backgrounds']]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${r.status})`);
  }
  if (!existsSync(photoDir)) throw new Error('mate-backgrounds installed but its photographs are not where expected.');
}

/** The photographs' JPEG paths, in name order (installing them first when missing). */
export function mateJpegs() {
  ensureMateBackgrounds();
  return readdirSync(photoDir)
    .filter((f) => /\.jpe?g$/i.test(f))
    .sort()
    .map((f) => join(photoDir, f));
}
