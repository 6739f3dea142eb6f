import UAParser from 'ua-parser-js';

/** The low-entropy User-Agent Client Hints (`navigator.userAgentData`), which only Chromium browsers give. */
export interface UaHints {
  brands?: readonly { brand: string; version: string }[];
  mobile?: boolean;
  platform?: string;
}

export interface PlatformInput {
  ua: string;
  hints?: UaHints | null;
  /** `navigator.maxTouchPoints`: an iPad asking for desktop sites says it is a Mac, but has a touch screen. */
  maxTouchPoints: number;
  /** Running as an installed app: display-mode standalone (or fullscreen, minimal-ui, window-controls-overlay), or iOS's `navigator.standalone`. */
  standalone: boolean;
}

/**
 * What this browser can do to install Shoebox, which decides the help shown:
 * - `installed`: running as the installed app; no help.
 * - `chromium`: Chrome, Edge, Opera… on a computer or Android; they offer their own prompt (`beforeinstallprompt`).
 * - `samsung-internet`: may offer the prompt; otherwise its menu has Add page to → Home screen.
 * - `firefox-android`: its menu adds the app to the home screen; no prompt.
 * - `ios-safari`: Share → Add to Home Screen (iPad in desktop mode included).
 * - `ios-browser`: Chrome, Firefox or Edge on iOS: their Share menu adds to the Home Screen from iOS 16.4;
 *   before that only Safari could.
 * - `in-app`: a page inside another app (Instagram, Facebook, a web view): open it in the browser first.
 * - `mac-safari`: Safari 17 or later on macOS Sonoma: File → Add to Dock.
 * - `unsupported`: Firefox on a computer, older Safari on a Mac, anything else: explain, offer no steps.
 */
export type InstallPlatform =
  | { kind: 'installed' }
  | { kind: 'chromium'; browser: string; mobile: boolean }
  | { kind: 'samsung-internet' }
  | { kind: 'firefox-android' }
  | { kind: 'ios-safari'; device: 'iphone' | 'ipad'; desktopMode: boolean }
  | { kind: 'ios-browser'; browser: string; canAddToHomeScreen: boolean }
  | { kind: 'in-app'; os: 'iOS' | 'Android'; app: string | null }
  | { kind: 'mac-safari' }
  | { kind: 'unsupported'; browser: string; reason: 'firefox-desktop' | 'old-safari' | 'unknown' };

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

/** Chromium's own brands in the client hints, with the name to say. */
const CH_BRANDS: Record<string, string> = {
  'Microsoft Edge': 'Edge',
  'Google Chrome': 'Chrome',
  Opera: 'Opera',
  'Samsung Internet': 'Samsung Internet',
  Brave: 'Brave',
  Vivaldi: 'Vivaldi',
  Yandex: 'Yandex',
};

/** Which install help applies, from the user agent, the client hints, the touch points and the display mode. */
export function installPlatform({ ua, hints, maxTouchPoints, standalone }: PlatformInput): InstallPlatform {
  if (standalone) return { kind: 'installed' };
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

interface NavigatorWithExtras {
  userAgent: string;
  maxTouchPoints?: number;
  userAgentData?: UaHints;
  /** iOS Safari's own flag for a page opened from the Home Screen. */
  standalone?: boolean;
}

const INSTALLED_MODES = ['standalone', 'fullscreen', 'minimal-ui', 'window-controls-overlay'];

/** Reads what `installPlatform` needs from this window. */
export function readPlatformInput(win: Window): PlatformInput {
  const nav = win.navigator as NavigatorWithExtras;
  const displayMode = typeof win.matchMedia === 'function' && INSTALLED_MODES.some((m) => win.matchMedia(`(display-mode: ${m})`).matches);
  const ch = nav.userAgentData;
  return {
    ua: nav.userAgent,
    hints: ch ? { brands: ch.brands, mobile: ch.mobile, platform: ch.platform } : null,
    maxTouchPoints: nav.maxTouchPoints ?? 0,
    standalone: displayMode || nav.standalone === true,
  };
}
