/**
 * What the install help reads of this browser, and what it can tell without parsing the user agent: the parser
 * (ua-parser-js) is most of the help's code, and a computer's Chromium, which offers its own prompt, needs none
 * of it. The whole decision is `installPlatform` in platform.ts.
 */

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

/** Chromium's own brands in the client hints, with the name to say. */
export const CH_BRANDS: Record<string, string> = {
  'Microsoft Edge': 'Edge',
  'Google Chrome': 'Chrome',
  Opera: 'Opera',
  'Samsung Internet': 'Samsung Internet',
  Brave: 'Brave',
  Vivaldi: 'Vivaldi',
  Yandex: 'Yandex',
};

/** Sec-CH-UA-Platform's names for a computer's systems. */
const COMPUTER_PLATFORMS = new Set(['Windows', 'macOS', 'Linux', 'Chrome OS', 'Chromium OS']);

/**
 * The install platform where the user agent need not be parsed: running installed, or a Chromium browser
 * whose client hints say it runs on a computer (the hints are the more truthful where present, and only
 * Chromium browsers send them). Null when the user agent must say.
 */
export function platformWithoutParsing({ hints, standalone }: PlatformInput): InstallPlatform | null {
  if (standalone) return { kind: 'installed' };
  const brands = hints?.brands?.map((b) => b.brand) ?? [];
  if (!brands.includes('Chromium') || hints?.mobile !== false || !COMPUTER_PLATFORMS.has(hints.platform ?? '')) return null;
  const known = brands.find((b) => b in CH_BRANDS);
  return { kind: 'chromium', browser: known ? (CH_BRANDS[known] as string) : 'Chromium', mobile: false };
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
