import { describe, expect, it } from 'vitest';
import { deviceLabel } from './device-label';

describe('deviceLabel', () => {
  it('names desktop browsers', () => {
    const ua = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    expect(deviceLabel(ua)).toEqual({ label: 'Chrome 131 on Mac OS', kind: 'desktop' });
  });
  it('recognises phones', () => {
    const ua = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
    const d = deviceLabel(ua);
    expect(d.kind).toBe('mobile');
    expect(d.label).toMatch(/Safari 17 on iOS/);
  });
});
