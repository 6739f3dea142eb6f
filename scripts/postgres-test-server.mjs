#!/usr/bin/env node
// A throwaway PostgreSQL cluster on loopback for `tests/db` (DATABASE_URL mode):
//   node scripts/postgres-test-server.mjs          start it (installs Debian's postgresql when missing, as root)
//   node scripts/postgres-test-server.mjs stop     stop it and delete its data
// Prints `DATABASE_URL=postgres://postgres@127.0.0.1:<port>/postgres`. Trust authentication, loopback only:
// for tests, never for data.
// Settings: PGDATA_TEST (its folder, default /tmp/shoebox-postgres-test), PGPORT_TEST (its port; by default a free
// one). A cluster already running from that folder, or a port already taken, is an error that says so: a server
// someone else started is never taken for this one.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** A port nothing listens on now (the kernel's choice), or the one asked for when it is free. */
function freePort(wanted) {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (e) => reject(e.code === 'EADDRINUSE' ? new Error(`port ${wanted} is already in use: choose another PGPORT_TEST`) : e));
    probe.listen(wanted, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

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

if (existsSync(join(data, 'postmaster.pid'))) {
  throw new Error(`a PostgreSQL cluster from ${dir} is running: stop it with \`node scripts/postgres-test-server.mjs stop\`, or choose another PGDATA_TEST.`);
}
const port = await freePort(Number(process.env.PGPORT_TEST ?? 0));
rmSync(dir, { recursive: true, force: true });
mkdirSync(data, { recursive: true });
if (isRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
asPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale']);
asPostgres(join(bin, 'pg_ctl'), [
  '-D', data, '-l', join(dir, 'server.log'), '-w', '-o',
  `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c wal_level=logical -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
  'start',
]);
console.log(`DATABASE_URL=postgres://postgres@127.0.0.1:${port}/postgres`);
