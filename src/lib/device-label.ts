import UAParser from 'ua-parser-js';

export interface DeviceLabel {
  /** "Chrome 131 on Android, Pixel 8", "Safari 18 on iPadOS, iPad", "Firefox 133 on Windows". */
  label: string;
  kind: 'desktop' | 'mobile' | 'tablet';
}

/**
 * What a browser tells of itself besides its user agent: User-Agent Client Hints (Chromium only, from
 * `navigator.userAgentData.getHighEntropyValues(['model', 'platformVersion', 'fullVersionList'])`), and
 * `navigator.maxTouchPoints`, which tells an iPad asking for desktop sites from a Mac.
 */
export interface UaExtras {
  hints?: UaHints | null;
  maxTouchPoints?: number;
}

export interface UaHints {
  mobile?: boolean;
  platform?: string;
  model?: string;
  platformVersion?: string;
  fullVersionList?: { brand: string; version: string }[];
}

/**
 * [Note: Bounded user agents]
 * A user agent is text any client can send, of any length, and the parser and our own patterns run regular
 * expressions over it. Every real user agent fits well within 500 characters (the longest in our corpus is
 * under 400), so the text is cut to that before anything reads it: the cost of a label is then bounded
 * whatever arrives, which keeps a 100,000-character user agent as quick as a normal one (bench/ua-bench.mjs
 * measures it). ua-parser-js 1.x cuts at 500 itself (its UA_MAX_LENGTH); cutting first, at the same length,
 * keeps the bound ours rather than a detail of the library, and gives the parser and us the same text.
 */
export const MAX_USER_AGENT_LENGTH = 500;

/** The user agent as the parser may see it. */
export function boundedUserAgent(ua: string): string {
  return ua.length > MAX_USER_AGENT_LENGTH ? ua.slice(0, MAX_USER_AGENT_LENGTH) : ua;
}

/** ua-parser-js 1.x (MIT) over the bounded text; `ua` of the result is exactly what it read. */
export function parseUserAgent(ua: string): UAParser.IResult {
  return new UAParser(boundedUserAgent(ua)).getResult();
}

const BOT = /\b([\w-]*(?:bot|crawler|spider|slurp)[\w-]*|facebookexternalhit|Google-InspectionTool|HeadlessChrome)\b/i;

/** ua-parser's system names, as people know them now. */
const OS_NAMES: Record<string, string> = {
  'Mac OS': 'macOS',
  'Chromium OS': 'ChromeOS',
  'Chrome OS': 'ChromeOS',
};

/** Names ua-parser gives in-app browsers and others, where a shorter one reads better. */
const BROWSER_NAMES: Record<string, string> = {
  'Mobile Safari': 'Safari',
  'Chrome WebView': 'Android WebView',
  'Samsung Browser': 'Samsung Internet',
  'Mobile Firefox': 'Firefox',
  'Mobile Chrome': 'Chrome',
};

/**
 * In-app browsers ua-parser 1.x does not name (it names Instagram, Facebook and Snapchat itself): the app's
 * token and where its version is. WhatsApp's own agent ends in " A" on Android and " i" on iOS.
 */
const IN_APP: [RegExp, string][] = [
  [/\bLine\/(\d+)/, 'LINE'],
  [/\b(?:BytedanceWebview|musical_ly|trill)_?\/?(\d+)?/, 'TikTok'],
  [/\bTelegram-(?:Android|iOS)\/(\d+)/, 'Telegram'],
  [/^WhatsApp\/(\d+)/, 'WhatsApp'],
  [/\bLinkedInApp\/(\d+)/, 'LinkedIn'],
  [/\bPinterest(?: for (?:iOS|Android))?\/(\d+)/, 'Pinterest'],
];

function browserOf(r: UAParser.IResult): string {
  for (const [pattern, name] of IN_APP) {
    const m = pattern.exec(r.ua);
    if (m) return m[1] && name !== 'TikTok' ? `${name} ${m[1]}` : name;
  }
  // A bare WebKit view names no browser at all: an app showing a page inside itself.
  if (!r.browser.name || r.browser.name === 'WebKit') return r.os.name ? 'In-app browser' : 'Browser';
  const name = BROWSER_NAMES[r.browser.name] ?? r.browser.name;
  return [name, r.browser.major].filter(Boolean).join(' ');
}

/** Models that say nothing: Chromium's reduced user agent sends "K" for every Android device. */
const NO_MODEL = new Set(['K', 'Android', 'Macintosh']);

function windowsName(hints: UaHints | null | undefined): string {
  // Windows 10 and 11 send the same user agent; only the hints' platformVersion tells them apart (13+ is 11).
  const major = Number(hints?.platformVersion?.split('.')[0]);
  if (!hints?.platformVersion || Number.isNaN(major)) return 'Windows';
  return major >= 13 ? 'Windows 11' : major > 0 ? 'Windows 10' : 'Windows';
}

function modelOf(vendor: string | undefined, model: string | undefined): string | null {
  if (!model || NO_MODEL.has(model)) return null;
  if (!vendor || vendor === 'Apple' || vendor === 'Google' || model.toLowerCase().startsWith(vendor.toLowerCase())) return model;
  return `${vendor} ${model}`;
}

/** The hints' platform names (Sec-CH-UA-Platform) against ua-parser's system names. */
const HINT_PLATFORMS: Record<string, string> = { Windows: 'Windows', Android: 'Android', macOS: 'Mac OS', 'Chrome OS': 'Chromium OS', Linux: 'Linux' };

/**
 * Hints are trusted only when they speak of the system the user agent names: a user agent can be overridden
 * (developer tools, an extension, a test) while the hints still describe the real machine.
 */
function matchingHints(r: UAParser.IResult, hints: UaHints | null | undefined): UaHints | null {
  if (!hints) return null;
  if (hints.platform === undefined || hints.platform === '') return hints;
  const expected = HINT_PLATFORMS[hints.platform];
  return expected !== undefined && expected === r.os.name ? hints : null;
}

/** A readable label for a signed-in device, from its user agent and what else the browser tells. */
export function deviceLabel(ua: string, extras: UaExtras = {}): DeviceLabel {
  const r = parseUserAgent(ua);
  const hints = matchingHints(r, extras.hints);
  const bot = BOT.exec(r.ua);
  if (bot?.[1]) return { label: `${bot[1]} (bot)`, kind: 'desktop' };

  let os = r.os.name ? (OS_NAMES[r.os.name] ?? r.os.name) : null;
  if (!os && /^WhatsApp\/[\d.]+ [Ai]$/.test(r.ua)) os = r.ua.endsWith(' A') ? 'Android' : 'iOS';
  let kind: DeviceLabel['kind'] = r.device.type === 'mobile' || r.device.type === 'tablet' ? r.device.type : os === 'Android' || os === 'iOS' ? 'mobile' : 'desktop';
  let model = modelOf(r.device.vendor, r.device.model);

  // iPadOS asks for desktop sites with a Mac's user agent; a Mac has no touch screen.
  if (os === 'macOS' && (extras.maxTouchPoints ?? 0) > 1) {
    os = 'iPadOS';
    kind = 'tablet';
    model = 'iPad';
  } else if (os === 'iOS' && r.device.model === 'iPad') {
    os = 'iPadOS';
  }
  if (os === 'Windows') os = windowsName(hints);
  if (os === 'Android' && hints?.model) model = hints.model;
  if (os === 'Android' && hints?.mobile === true) kind = 'mobile';
  // An Android user agent without "Mobile" is a tablet's; ua-parser names only those whose model it knows.
  if (os === 'Android' && hints?.mobile === undefined && kind === 'desktop' && !/\bMobile\b/.test(r.ua)) kind = 'tablet';

  const browser = browserOf(r);
  const where = [os ?? 'unknown system', model].filter(Boolean).join(', ');
  return { label: `${browser} on ${where}`, kind };
}
