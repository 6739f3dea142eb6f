import UAParser from 'ua-parser-js';
import { CH_BRANDS, platformWithoutParsing, type InstallPlatform, type PlatformInput } from './platform-input';

/** "16.4" or "16_4" as one comparable number (16.10 after 16.9); NaN when unknown. */
function version(v: string | undefined): number {
  if (!v) return NaN;
  const [major = '', minor = '0'] = v.split(/[._]/);
  return Number(major) * 1000 + Number(minor);
}

/** iOS 16.4 let browsers other than Safari add web apps to the Home Screen from their Share menu. */
const IOS_OTHER_BROWSERS_ADD = version('16.4');

/** Named in-app browsers (ua-parser-js 1.x names them as browsers). */
const IN_APP = new Set(['Instagram', 'Facebook', 'Line', 'WeChat', 'TikTok', 'Snapchat', 'LinkedIn', 'Twitter', 'GSA', 'KakaoTalk', 'Klarna', 'Zalo']);

/** Which install help applies, from the user agent, the client hints, the touch points and the display mode. */
export function installPlatform(input: PlatformInput): InstallPlatform {
  const known = platformWithoutParsing(input);
  if (known) return known;
  const { ua, hints, maxTouchPoints } = input;
  const r = new UAParser(ua).getResult();
  const browser = r.browser.name ?? '';
  const brands = hints?.brands?.map((b) => b.brand) ?? [];
  // The hints are the more truthful where present: a reduced or "desktop site" user agent still sends the real platform.
  const chPlatform = hints?.platform || undefined;
  const os = chPlatform === 'Android' ? 'Android' : chPlatform === 'macOS' ? 'Mac OS' : r.os.name ?? '';

  // An iPad in desktop mode reports a Mac, but Macs have no touch screen. Its Safari version is the iPadOS version.
  const ipadDesktop = os === 'Mac OS' && maxTouchPoints > 1 && r.engine.name === 'WebKit' && !chPlatform;
  if (os === 'iOS' || ipadDesktop) {
    const iosVersion = version(ipadDesktop ? /Version\/([\d.]+)/.exec(ua)?.[1] : r.os.version);
    if (IN_APP.has(browser) || browser === 'WebKit' || !/Safari\//.test(ua)) return { kind: 'in-app', os: 'iOS', app: IN_APP.has(browser) ? browser : null };
    if (browser === 'Mobile Safari' || browser === 'Safari') {
      return { kind: 'ios-safari', device: ipadDesktop || r.device.type === 'tablet' ? 'ipad' : 'iphone', desktopMode: ipadDesktop };
    }
    // An unknown version (an iPad in desktop mode without a Version token) is a recent one: desktop mode came with iPadOS 13, and such browsers are kept up to date.
    return { kind: 'ios-browser', browser: browser || 'This browser', canAddToHomeScreen: Number.isNaN(iosVersion) || iosVersion >= IOS_OTHER_BROWSERS_ADD };
  }

  if (os === 'Android') {
    if (IN_APP.has(browser) || browser === 'Chrome WebView' || brands.includes('Android WebView') || /; wv\)/.test(ua)) {
      return { kind: 'in-app', os: 'Android', app: IN_APP.has(browser) ? browser : null };
    }
    if (browser === 'Samsung Internet' || brands.includes('Samsung Internet')) return { kind: 'samsung-internet' };
    if (r.engine.name === 'Gecko' || browser === 'Firefox') return { kind: 'firefox-android' };
  }

  const chBrand = brands.find((b) => b in CH_BRANDS);
  if (brands.includes('Chromium') || r.engine.name === 'Blink') {
    const name = chBrand ? (CH_BRANDS[chBrand] as string) : browser || 'Chromium';
    return { kind: 'chromium', browser: name, mobile: hints?.mobile ?? (r.device.type === 'mobile' || r.device.type === 'tablet') };
  }
  if (browser === 'Firefox' || r.engine.name === 'Gecko') return { kind: 'unsupported', browser: 'Firefox', reason: 'firefox-desktop' };
  if (os === 'Mac OS' && browser === 'Safari') {
    return version(r.browser.version) >= version('17') ? { kind: 'mac-safari' } : { kind: 'unsupported', browser: 'Safari', reason: 'old-safari' };
  }
  return { kind: 'unsupported', browser: browser || 'This browser', reason: 'unknown' };
}
