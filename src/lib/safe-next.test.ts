import { describe, expect, it } from 'vitest';
import { safeNext } from './safe-next';

describe('safeNext', () => {
  it('keeps a path of this app, with its query and fragment', () => {
    expect(safeNext('/')).toBe('/');
    expect(safeNext('/albums/3f1c?sort=added#top')).toBe('/albums/3f1c?sort=added#top');
    expect(safeNext('/account')).toBe('/account');
    expect(safeNext('/albums/caf%C3%A9')).toBe('/albums/caf%C3%A9');
  });

  it('sends nothing and empty to the start page', () => {
    expect(safeNext(null)).toBe('/');
    expect(safeNext('')).toBe('/');
    expect(safeNext('albums')).toBe('/');
  });

  // Each of these leaves the site (or runs script) in some browser or URL parser.
  const hostile = [
    '//evil.example',
    '//evil.example/path',
    '/\\evil.example',
    '\\/evil.example',
    '\\\\evil.example',
    '/\\\\evil.example',
    '\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r/evil.example',
    '\t//evil.example',
    ' //evil.example',
    '/ /evil.example',
    '/\u0000/evil.example',
    '/\u007f/evil.example',
    '/%2F%2Fevil.example',
    '/%2f/evil.example',
    '/%5Cevil.example',
    '/%5c%5cevil.example',
    '%2F%2Fevil.example',
    '/%252F%252Fevil.example',
    'https://evil.example',
    'https:evil.example',
    'HTTPS://evil.example',
    '//https://evil.example',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '/\u3000/evil.example',
    '/\u2028/evil.example',
    '/\uff0f/evil.example',
    '/%E3%80%80/evil.example',
  ];
  it.each(hostile)('refuses %j', (next) => {
    expect(safeNext(next)).toBe('/');
  });
});
