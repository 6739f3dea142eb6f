/**
 * Device labels over a corpus of real user agents (tests/unit/fixtures/user-agents.json): desktop browsers
 * on Windows, macOS, Linux and ChromeOS; Android phones and tablets, with Chromium's reduced user agent and
 * the Client Hints that name the model; iOS; iPadOS asking for desktop sites; in-app browsers; bots.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_USER_AGENT_LENGTH, deviceLabel, parseUserAgent, type UaHints } from '../../src/lib/device-label';

interface Sample {
  group: 'desktop' | 'android' | 'ios' | 'ipados' | 'in-app' | 'bot';
  ua: string;
  hints?: UaHints;
  maxTouchPoints?: number;
  label: string;
  kind: 'desktop' | 'mobile' | 'tablet';
}

const corpus = JSON.parse(readFileSync(new URL('./fixtures/user-agents.json', import.meta.url), 'utf8')) as Sample[];

describe('device labels', () => {
  it('has at least 50 real user agents, each group represented', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(50);
    const groups = new Set(corpus.map((s) => s.group));
    expect([...groups].sort()).toEqual(['android', 'bot', 'desktop', 'in-app', 'ios', 'ipados']);
  });

  it.each(corpus.map((s, i) => [i, s.label, s] as const))('#%i reads "%s"', (_i, _label, s) => {
    expect(deviceLabel(s.ua, { hints: s.hints ?? null, maxTouchPoints: s.maxTouchPoints ?? 0 })).toEqual({ label: s.label, kind: s.kind });
  });

  it('names the Android model from Client Hints where the reduced user agent says only "K"', () => {
    const reduced = corpus.find((s) => s.ua.includes('Android 10; K)') && s.ua.includes('Mobile') && !s.hints);
    expect(reduced).toBeDefined();
    const ua = reduced?.ua ?? '';
    expect(deviceLabel(ua).label).not.toMatch(/, K$/);
    expect(deviceLabel(ua, { hints: { mobile: true, model: 'Pixel 8', platformVersion: '15.0.0' } }).label).toBe('Chrome 131 on Android, Pixel 8');
  });

  it('trusts hints only when they speak of the system the user agent names (an overridden user agent keeps the real machine\'s hints)', () => {
    const windows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    expect(deviceLabel(windows, { hints: { platform: 'Linux', platformVersion: '6.1.0', mobile: false, model: '' } }).label).toBe('Chrome 131 on Windows');
    expect(deviceLabel(windows, { hints: { platform: 'Windows', platformVersion: '15.0.0' } }).label).toBe('Chrome 131 on Windows 11');
    const android = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
    expect(deviceLabel(android, { hints: { platform: 'Windows', model: 'Surface' } }).label).toBe('Chrome 131 on Android');
  });

  it('tells an iPad asking for desktop sites from a Mac by its touch screen', () => {
    const mac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
    expect(deviceLabel(mac, { maxTouchPoints: 0 })).toEqual({ label: 'Safari 18 on macOS', kind: 'desktop' });
    expect(deviceLabel(mac, { maxTouchPoints: 5 })).toEqual({ label: 'Safari 18 on iPadOS, iPad', kind: 'tablet' });
  });
});

describe('a user agent of any length', () => {
  const normal = corpus[0]?.ua ?? '';
  const huge = `${normal} ${'x'.repeat(100_000 - normal.length - 1)}`;
  const hugeAndHostile = `Mozilla/5.0 (${'('.repeat(50_000)}${'Linux; Android '.repeat(3_000)}`.slice(0, 100_000);

  it('is cut to its first 500 characters before the parser sees it', () => {
    expect(huge).toHaveLength(100_000);
    expect(MAX_USER_AGENT_LENGTH).toBe(500);
    expect(parseUserAgent(huge).ua).toBe(huge.slice(0, MAX_USER_AGENT_LENGTH));
    expect(parseUserAgent(hugeAndHostile).ua).toHaveLength(MAX_USER_AGENT_LENGTH);
    // A normal one is read whole.
    expect(parseUserAgent(normal).ua).toBe(normal);
  });

  it('gives a 100,000-character user agent the label of its first 500 characters', () => {
    expect(deviceLabel(huge)).toEqual(deviceLabel(huge.slice(0, MAX_USER_AGENT_LENGTH)));
    expect(deviceLabel(huge).label).toBe(corpus[0]?.label);
    expect(deviceLabel(hugeAndHostile)).toEqual(deviceLabel(hugeAndHostile.slice(0, MAX_USER_AGENT_LENGTH)));
  });
});
