import UAParser from 'ua-parser-js';

export interface DeviceLabel {
  label: string;
  kind: 'desktop' | 'mobile' | 'tablet';
}

/** "Chrome 131 on macOS", from the user agent (ua-parser-js 1.x: MIT). */
export function deviceLabel(ua: string): DeviceLabel {
  const r = new UAParser(ua).getResult();
  const browser = [r.browser.name, r.browser.major].filter(Boolean).join(' ') || 'Browser';
  const os = r.os.name ?? 'unknown system';
  const kind = r.device.type === 'mobile' || r.device.type === 'tablet' ? r.device.type : 'desktop';
  return { label: `${browser} on ${os}`, kind };
}
