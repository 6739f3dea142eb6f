/**
 * The bucket's https address in the end-to-end world, reached alike by the browser and the edge functions.
 *
 * The app may reach a bucket only at an https origin (the build's Content-Security-Policy admits no other
 * backend), and the edge functions sign for one address: the one they are given as S3_ENDPOINT, which is also
 * where they send their own requests (share-upload deletes a guest's objects, purge deletes and aborts). A name
 * that only the browser's routing knows left the functions' own requests nowhere to go. So the bucket gets a
 * real https endpoint on loopback: a TLS front passing every byte to the S3 gateway (S3_TEST_ENDPOINT), with a
 * certificate made for this run. The functions trust that certificate (Deno's fetch through DENO_CERT, the AWS
 * SDK's node:https through NODE_EXTRA_CA_CERTS); the browser's requests to the same origin are routed to the
 * same gateway by emulated-gateway.ts. Either way the gateway sees the Host the request was signed for.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:tls';

export interface BucketEndpoint {
  /** `https://127.0.0.1:<port>`: the bucket's origin for the app and the functions. */
  origin: string;
  /** Environment that makes a Deno edge function trust the endpoint's certificate. */
  trust: Record<string, string>;
  stop(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1, valid from now for a day (so whatever the machine's date is). */
export function makeCertificate(dir: string): { key: string; cert: string } {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  const made = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
      // A trust anchor that is its own end entity: rustls (Deno's fetch) refuses a CA certificate as a server's.
      '-addext', 'basicConstraints=critical,CA:FALSE'],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl could not make the bucket endpoint's certificate (is openssl installed?): ${made.error?.message ?? made.stderr}`);
  return { key, cert };
}

export async function startBucketEndpoint(upstream: string): Promise<BucketEndpoint> {
  const target = new URL(upstream);
  const dir = mkdtempSync(join(tmpdir(), 'shoebox-bucket-tls-'));
  const files = makeCertificate(dir);
  const open = new Set<{ destroy(): void }>();
  const server = createServer({ key: readFileSync(files.key), cert: readFileSync(files.cert) }, (socket) => {
    const gateway = connect(Number(target.port || 80), target.hostname);
    for (const s of [socket, gateway]) {
      open.add(s);
      s.on('close', () => open.delete(s));
    }
    socket.pipe(gateway).pipe(socket);
    gateway.on('error', () => socket.destroy());
    socket.on('error', () => gateway.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    trust: { DENO_CERT: files.cert, NODE_EXTRA_CA_CERTS: files.cert },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}
