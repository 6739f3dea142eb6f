/**
 * Token verification for projects that sign with asymmetric keys: the JWKS given in SUPABASE_JWKS, or
 * fetched from `${SUPABASE_URL}/auth/v1/.well-known/jwks.json` (served here by a real local HTTP server).
 */
import assert from 'node:assert/strict';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { ConfigError } from './config-error.ts';
import { tokenVerifierFromEnv } from './jwt.ts';
import { test } from './test-world.ts';

const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
const other = await generateKeyPair('ES256');
const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] };

const token = (key: CryptoKey, exp = '1h') =>
  new SignJWT({ sub: crypto.randomUUID(), role: 'authenticated' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setExpirationTime(exp)
    .sign(key);

async function rejects(p: Promise<unknown>) {
  await assert.rejects(p);
}

test('SUPABASE_JWKS: the project key verifies, another key, an expired token and an HS256 token do not', async () => {
  const verify = tokenVerifierFromEnv({ SUPABASE_JWKS: JSON.stringify(jwks) });
  assert.equal((await verify(await token(privateKey))).role, 'authenticated');
  await rejects(verify(await token(other.privateKey)));
  await rejects(verify(await token(privateKey, '-1m')));
  const hs = await new SignJWT({ role: 'authenticated' }).setProtectedHeader({ alg: 'HS256', kid: 'k1' }).setExpirationTime('1h')
    .sign(new TextEncoder().encode(JSON.stringify(jwks)));
  await rejects(verify(hs));
  assert.throws(() => tokenVerifierFromEnv({ SUPABASE_JWKS: '{not json' }), ConfigError);
});

test("the project's published JWKS is fetched from SUPABASE_URL when no secret or JWKS is set", async () => {
  const served: string[] = [];
  const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: () => undefined }, (req) => {
    served.push(new URL(req.url).pathname);
    return Response.json(jwks);
  });
  try {
    const verify = tokenVerifierFromEnv({ SUPABASE_URL: `http://127.0.0.1:${server.addr.port}` });
    assert.equal((await verify(await token(privateKey))).role, 'authenticated');
    await rejects(verify(await token(other.privateKey)));
    assert.deepEqual([...new Set(served)], ['/auth/v1/.well-known/jwks.json']);
  } finally {
    await server.shutdown();
  }
});
