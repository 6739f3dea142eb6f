import { describe, expect, it } from 'vitest';
import { linkTokens } from './link-tokens';

const links = (text: string) => linkTokens(text).filter((t) => t.kind === 'link').map((t) => (t.kind === 'link' ? t.href : ''));

describe('links in comments', () => {
  it('makes http and https addresses links, leaving sentence punctuation outside', () => {
    expect(linkTokens('See https://example.org/a?b=1. Nice')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'https://example.org/a?b=1', href: 'https://example.org/a?b=1' },
      { kind: 'text', text: '. Nice' },
    ]);
    expect(links('(http://x.test/path), and https://en.wikipedia.org/wiki/Foo_(bar)!')).toEqual(['http://x.test/path', 'https://en.wikipedia.org/wiki/Foo_(bar)']);
  });

  it('never makes a link of javascript:, data:, file: or an address without a scheme', () => {
    for (const text of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'file:///etc/passwd', 'www.example.org', 'JaVaScRiPt:alert(1)//https://x.org']) {
      expect(links(text).every((href) => href.startsWith('https://'))).toBe(true);
      expect(links(text).some((href) => /javascript|data:|file:/i.test(href))).toBe(false);
    }
    expect(links('https://')).toEqual([]);
    expect(linkTokens('plain words')).toEqual([{ kind: 'text', text: 'plain words' }]);
  });

  it('keeps every character of the text, in order', () => {
    const text = 'a https://x.org/1 b http://y.org/2? c';
    expect(linkTokens(text).map((t) => t.text).join('')).toBe(text);
  });
});
