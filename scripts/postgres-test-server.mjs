#!/usr/bin/env node
// A throwaway PostgreSQL cluster on loopback for `tests/db` (DATABASE_URL mode):
//   node scripts/postgres-test-server.mjs          start it (installs Debian's postgresql when missing, as root)
//   node scripts/postgres-test-server.mjs stop     stop it and delete its data
// Prints `DATABASE_URL=postgres://postgres@127.0.0.1:<port>/postgres`. Trust authentication, loopback only:
// for tests, never for data.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const port = Number(process.env.PGPORT_TEST ?? 54329);
const dir = process.env.PGDATA_TEST ?? '/tmp/shoebox-postgres-test';
const data = join(dir, 'data');
const isRoot = process.getuid?.() === 0;

function binDir() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(base, versions[0], 'bin') : null;
}

// initdb refuses to run as root: the cluster belongs to the `postgres` system user.
function asPostgres(cmd, args) {
  const argv = isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  const r = spawnSync(argv[0], argv[1], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})`);
}

let bin = binDir();
if (process.argv[2] === 'stop') {
  if (bin && existsSync(join(data, 'PG_VERSION'))) asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', 'stop']);
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

if (!bin) {
  if (!isRoot) throw new Error('PostgreSQL is not installed; run as root to install it with apt-get, or install postgresql.');
  execFileSync('apt-get', ['update'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  bin = binDir();
  if (!bin) throw new Error('postgresql installed but initdb was not found');
}

if (!existsSync(join(data, 'PG_VERSION'))) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(data, { recursive: true });
  if (isRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  asPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale']);
}
asPostgres(join(bin, 'pg_ctl'), [
  '-D', data, '-l', join(dir, 'server.log'), '-w', '-o',
  `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c wal_level=logical -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
  'start',
]);
console.log(`DATABASE_URL=postgres://postgres@127.0.0.1:${port}/postgres`);
