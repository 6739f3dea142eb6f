import { describe, expect, it } from 'vitest';
import { installPlatform } from './platform';
import { platformWithoutParsing, type PlatformInput, type UaHints } from './platform-input';

const UA = {
  iphoneSafari: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipadSafari: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  // iPadOS Safari asks for desktop sites by default and then says it is a Mac.
  ipadDesktop: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  macSafari17: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  macSafari16: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Safari/605.1.15',
  chromeIos17: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  chromeIos16_3: 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/109.0.5414.83 Mobile/15E148 Safari/604.1',
  chromeIos16_4: 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/112.0.5615.46 Mobile/15E148 Safari/604.1',
  firefoxIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15',
  edgeIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 EdgiOS/126.2592.56 Mobile/15E148 Safari/605.1.15',
  instagramIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 337.0.3.23.54 (iPhone14,5; iOS 17_5; en_US; en; scale=3.00; 1170x2532; 618330017)',
  facebookIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/470.0.0.49.109;FBBV/611222755;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.5;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBRV/613236405]',
  googleAppIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/322.0.648915268 Mobile/15E148 Safari/604.1',
  webViewIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  macChrome: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  winEdge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  winOpera: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/116.0.0.0',
  chromeOs: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  androidChrome: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  // Chrome on Android asking for the desktop site: the user agent says Linux, the client hints still say Android.
  androidChromeDesktopSite: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  samsung: 'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  androidFirefox: 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
  androidFacebook: 'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240705.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.122 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/471.0.0.35.80;]',
  androidWebView: 'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240705.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.122 Mobile Safari/537.36',
  winFirefox: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  macFirefox: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:133.0) Gecko/20100101 Firefox/133.0',
} as const;

const chromeHints = (platform: string, mobile: boolean, brand = 'Google Chrome'): UaHints => ({
  brands: [{ brand: 'Chromium', version: '131' }, { brand, version: '131' }, { brand: 'Not_A Brand', version: '24' }],
  mobile,
  platform,
});

const input = (ua: string, over: Partial<PlatformInput> = {}): PlatformInput => ({ ua, hints: null, maxTouchPoints: 0, standalone: false, ...over });

describe('installPlatform', () => {
  it('says nothing is to be installed when running as the installed app, whatever the browser', () => {
    expect(installPlatform(input(UA.macChrome, { standalone: true, hints: chromeHints('macOS', false) }))).toEqual({ kind: 'installed' });
    expect(installPlatform(input(UA.iphoneSafari, { standalone: true, maxTouchPoints: 5 }))).toEqual({ kind: 'installed' });
  });

  it('gives iPhone and iPad Safari the Share → Add to Home Screen steps', () => {
    expect(installPlatform(input(UA.iphoneSafari, { maxTouchPoints: 5 }))).toEqual({ kind: 'ios-safari', device: 'iphone', desktopMode: false });
    expect(installPlatform(input(UA.ipadSafari, { maxTouchPoints: 5 }))).toEqual({ kind: 'ios-safari', device: 'ipad', desktopMode: false });
  });

  it('tells an iPad in desktop mode from a Mac by its touch screen', () => {
    expect(installPlatform(input(UA.ipadDesktop, { maxTouchPoints: 5 }))).toEqual({ kind: 'ios-safari', device: 'ipad', desktopMode: true });
    expect(installPlatform(input(UA.ipadDesktop, { maxTouchPoints: 0 }))).toEqual({ kind: 'mac-safari' });
  });

  it('lets Chrome, Firefox and Edge on iOS 16.4 and later add to the Home Screen, and sends older ones to Safari', () => {
    expect(installPlatform(input(UA.chromeIos17, { maxTouchPoints: 5 }))).toEqual({ kind: 'ios-browser', browser: 'Chrome', canAddToHomeScreen: true });
    expect(installPlatform(input(UA.chromeIos16_4, { maxTouchPoints: 5 }))).toEqual({ kind: 'ios-browser', browser: 'Chrome', canAddToHomeScreen: true });
    expect(installPlatform(input(UA.chromeIos16_3, { maxTouchPoints: 5 }))).toEqual({ kind: 'ios-browser', browser: 'Chrome', canAddToHomeScreen: false });
    expect(installPlatform(input(UA.firefoxIos, { maxTouchPoints: 5 }))).toEqual({ kind: 'ios-browser', browser: 'Firefox', canAddToHomeScreen: true });
    expect(installPlatform(input(UA.edgeIos, { maxTouchPoints: 5 }))).toEqual({ kind: 'ios-browser', browser: 'Edge', canAddToHomeScreen: true });
  });

  it('sends pages opened inside other apps to the browser first', () => {
    expect(installPlatform(input(UA.instagramIos, { maxTouchPoints: 5 }))).toEqual({ kind: 'in-app', os: 'iOS', app: 'Instagram' });
    expect(installPlatform(input(UA.facebookIos, { maxTouchPoints: 5 }))).toEqual({ kind: 'in-app', os: 'iOS', app: 'Facebook' });
    expect(installPlatform(input(UA.googleAppIos, { maxTouchPoints: 5 }))).toEqual({ kind: 'in-app', os: 'iOS', app: 'GSA' });
    expect(installPlatform(input(UA.webViewIos, { maxTouchPoints: 5 }))).toEqual({ kind: 'in-app', os: 'iOS', app: null });
    expect(installPlatform(input(UA.androidFacebook, { maxTouchPoints: 5 }))).toEqual({ kind: 'in-app', os: 'Android', app: 'Facebook' });
    expect(installPlatform(input(UA.androidWebView, { maxTouchPoints: 5, hints: chromeHints('Android', true, 'Android WebView') }))).toEqual({
      kind: 'in-app',
      os: 'Android',
      app: null,
    });
  });

  it('expects the prompt from Chromium browsers on computers and Android, named from the client hints where given', () => {
    expect(installPlatform(input(UA.macChrome, { hints: chromeHints('macOS', false) }))).toEqual({ kind: 'chromium', browser: 'Chrome', mobile: false });
    expect(installPlatform(input(UA.winEdge, { hints: chromeHints('Windows', false, 'Microsoft Edge') }))).toEqual({ kind: 'chromium', browser: 'Edge', mobile: false });
    expect(installPlatform(input(UA.winOpera))).toEqual({ kind: 'chromium', browser: 'Opera', mobile: false });
    expect(installPlatform(input(UA.chromeOs, { hints: chromeHints('Chrome OS', false) }))).toEqual({ kind: 'chromium', browser: 'Chrome', mobile: false });
    expect(installPlatform(input(UA.androidChrome, { maxTouchPoints: 5, hints: chromeHints('Android', true) }))).toEqual({ kind: 'chromium', browser: 'Chrome', mobile: true });
    // Without hints (an http page, or hints turned off), the user agent alone still says Chrome on a phone.
    expect(installPlatform(input(UA.androidChrome, { maxTouchPoints: 5 }))).toEqual({ kind: 'chromium', browser: 'Chrome', mobile: true });
  });

  it('believes the client hints over a desktop-site user agent', () => {
    expect(installPlatform(input(UA.androidChromeDesktopSite, { maxTouchPoints: 5, hints: chromeHints('Android', false) }))).toEqual({
      kind: 'chromium',
      browser: 'Chrome',
      mobile: false,
    });
    // Samsung Internet's own brand in the hints, behind a plain Chrome user agent.
    expect(installPlatform(input(UA.androidChromeDesktopSite, { maxTouchPoints: 5, hints: chromeHints('Android', false, 'Samsung Internet') }))).toEqual({
      kind: 'samsung-internet',
    });
  });

  it('gives Samsung Internet and Firefox on Android their menu steps', () => {
    expect(installPlatform(input(UA.samsung, { maxTouchPoints: 5 }))).toEqual({ kind: 'samsung-internet' });
    expect(installPlatform(input(UA.androidFirefox, { maxTouchPoints: 5 }))).toEqual({ kind: 'firefox-android' });
  });

  it('says Firefox on a computer and Safari before 17 on a Mac cannot install it; Safari 17 adds it to the Dock', () => {
    for (const ua of [UA.winFirefox, UA.linuxFirefox, UA.macFirefox]) {
      expect(installPlatform(input(ua))).toEqual({ kind: 'unsupported', browser: 'Firefox', reason: 'firefox-desktop' });
    }
    expect(installPlatform(input(UA.macSafari16))).toEqual({ kind: 'unsupported', browser: 'Safari', reason: 'old-safari' });
    expect(installPlatform(input(UA.macSafari17))).toEqual({ kind: 'mac-safari' });
  });

  it('explains, without steps, for a browser it does not know', () => {
    expect(installPlatform(input('curl/8.5.0'))).toEqual({ kind: 'unsupported', browser: 'This browser', reason: 'unknown' });
    expect(installPlatform(input(''))).toEqual({ kind: 'unsupported', browser: 'This browser', reason: 'unknown' });
  });
});

describe('platformWithoutParsing', () => {
  it('tells a computer’s Chromium from its client hints alone, whatever its user agent says', () => {
    expect(platformWithoutParsing(input('', { hints: chromeHints('Linux', false, 'Chromium') }))).toEqual({ kind: 'chromium', browser: 'Chromium', mobile: false });
    expect(platformWithoutParsing(input('', { hints: chromeHints('Windows', false, 'Microsoft Edge') }))).toEqual({ kind: 'chromium', browser: 'Edge', mobile: false });
    expect(platformWithoutParsing(input('', { standalone: true }))).toEqual({ kind: 'installed' });
  });

  it('leaves phones, Android asking for desktop sites and browsers without hints to the user agent', () => {
    expect(platformWithoutParsing(input(UA.androidChrome, { hints: chromeHints('Android', true) }))).toBeNull();
    expect(platformWithoutParsing(input(UA.androidChromeDesktopSite, { hints: chromeHints('Android', false) }))).toBeNull();
    expect(platformWithoutParsing(input(UA.winFirefox))).toBeNull();
    expect(platformWithoutParsing(input(UA.ipadDesktop, { maxTouchPoints: 5 }))).toBeNull();
  });
});
