import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, headersFile, originOf, parseHeadersFile, policySourcesFromEnv } from './content-security-policy';

const directives = (policy: string) => new Map(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));

describe('contentSecurityPolicy', () => {
  it('keeps scripts, plugins, <base> and forms shut whatever the backend', () => {
    for (const backend of [null, { kind: 'local' as const }, { kind: 'supabase' as const, url: 'https://abc.supabase.co', anonKey: 'k' }]) {
      const d = directives(contentSecurityPolicy({ backend }));
      expect(d.get('script-src')).toBe("'self' 'wasm-unsafe-eval'");
      expect(d.get('object-src')).toBe("'none'");
      expect(d.get('base-uri')).toBe("'none'");
      expect(d.get('form-action')).toBe("'none'");
      expect(d.get('style-src')).toBe("'self'");
      expect(d.get('style-src-elem')).toBe("'self' 'unsafe-inline'");
      expect(d.has('frame-ancestors')).toBe(false); // ignored in a <meta>
    }
    expect(directives(contentSecurityPolicy({ backend: null }, 'header')).get('frame-ancestors')).toBe("'none'");
  });

  it('allows the local backend only itself, blob: and data:', () => {
    const d = directives(contentSecurityPolicy({ backend: { kind: 'local' } }));
    expect(d.get('connect-src')).toBe("'self'");
    expect(d.get('img-src')).toBe("'self' blob: data:");
    expect(d.get('media-src')).toBe("'self' blob: data:");
  });

  it('allows a Supabase project over https and wss, and Supabase Storage on the same origin', () => {
    const d = directives(
      contentSecurityPolicy({ backend: { kind: 'supabase', url: 'https://abc.supabase.co/', anonKey: 'k', storage: { provider: 'supabase', region: 'eu-central-1', bucket: 'shoebox' } } }),
    );
    expect(d.get('connect-src')).toBe("'self' https://abc.supabase.co wss://abc.supabase.co");
    expect(d.get('img-src')).toBe("'self' blob: data: https://abc.supabase.co");
  });

  it('allows another S3 provider only where allowedOrigins says, else any https origin for files', () => {
    const s3 = { kind: 'supabase' as const, url: 'https://abc.supabase.co', anonKey: 'k', storage: { provider: 's3' as const } };
    const named = directives(contentSecurityPolicy({ backend: s3, allowedOrigins: ['https://acct.r2.cloudflarestorage.com'] }));
    expect(named.get('connect-src')).toBe("'self' https://abc.supabase.co wss://abc.supabase.co https://acct.r2.cloudflarestorage.com");
    expect(named.get('img-src')).toBe("'self' blob: data: https://acct.r2.cloudflarestorage.com");
    expect(directives(contentSecurityPolicy({ backend: s3 })).get('img-src')).toBe("'self' blob: data: https:");
  });

  it('leaves https:/wss: open for a build whose backend config.json chooses', () => {
    const d = directives(contentSecurityPolicy({ backend: null }));
    expect(d.get('connect-src')).toBe("'self' https: wss:");
    expect(policySourcesFromEnv({}).backend).toBeNull();
    expect(policySourcesFromEnv({ VITE_SUPABASE_URL: 'https://abc.supabase.co', VITE_SUPABASE_ANON_KEY: 'k' }).backend).toMatchObject({ url: 'https://abc.supabase.co' });
  });
});

describe('headersFile', () => {
  it('gives every path the header form of the policy, which reads back as written', () => {
    const policy = contentSecurityPolicy({ backend: null }, 'header');
    const file = headersFile(policy);
    expect(file.split('\n')[0]).toBe('/*');
    expect(parseHeadersFile(file)).toEqual({
      'Content-Security-Policy': policy,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
    });
    // Headers for other paths are not every path's.
    expect(parseHeadersFile(`/assets/*\n  Cache-Control: immutable\n${file}`)).not.toHaveProperty('Cache-Control');
  });
});

describe('originOf', () => {
  it('takes https origins (and http on loopback) and nothing with a path, query or credentials', () => {
    expect(originOf('https://acct.r2.cloudflarestorage.com')).toBe('https://acct.r2.cloudflarestorage.com');
    expect(originOf('https://b.example:8443/')).toBe('https://b.example:8443');
    expect(originOf('http://127.0.0.1:9000')).toBe('http://127.0.0.1:9000');
    for (const bad of ['http://b.example', 'https://b.example/path', 'https://b.example?x', 'https://u:p@b.example', "'unsafe-inline'", '*', 'https:', 'javascript:alert(1)', 42]) {
      expect(originOf(bad)).toBeNull();
    }
    expect(() => policySourcesFromEnv({ VITE_ALLOWED_ORIGINS: "https://ok.example 'unsafe-eval'" })).toThrow(/VITE_ALLOWED_ORIGINS/);
  });
});
