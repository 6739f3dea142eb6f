// Browser tests use Debian's Chromium (Playwright's own browser download does not work on our machines).
// Installs it with apt-get when it is missing and we are root; otherwise says what to install.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPath } from './chromium.mjs';

export function ensureChromium() {
  const path = chromiumPath();
  if (existsSync(path)) return path;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(`Chromium not found at ${path}. Install it (Debian: sudo apt-get install -y chromium) or set CHROMIUM_PATH.`);
  }
  console.log('Installing Chromium from Debian packages…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', 'chromium', 'fonts-dejavu-core']]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${r.status})`);
  }
  if (!existsSync(path)) throw new Error(`Chromium still not found at ${path} after installing.`);
  return path;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(ensureChromium());
}
