import { describe, expect, it } from 'vitest';
import { isIosSafariInBrowser } from './ios-safari';

/** What the page reads: the user agent, the touch points, and whether it runs from the Home Screen. */
const nav = (ua: string, maxTouchPoints = 0, homeScreen = false) => ({ ua, maxTouchPoints, hints: null, standalone: homeScreen });

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPAD_DESKTOP_MODE =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const IPHONE_CHROME =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1';
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

describe('who is told that Safari erases stored uploads after 7 days', () => {
  it('iPhone Safari in the browser, and an iPad in desktop mode (a Mac with a touch screen)', () => {
    expect(isIosSafariInBrowser(nav(IPHONE_SAFARI, 5))).toBe(true);
    expect(isIosSafariInBrowser(nav(IPAD_DESKTOP_MODE, 5))).toBe(true);
  });

  it('not once added to the Home Screen, nor a Mac, nor Chrome on iOS or Android', () => {
    expect(isIosSafariInBrowser(nav(IPHONE_SAFARI, 5, true))).toBe(false);
    expect(isIosSafariInBrowser(nav(IPAD_DESKTOP_MODE, 0))).toBe(false);
    expect(isIosSafariInBrowser(nav(IPHONE_CHROME, 5))).toBe(false);
    expect(isIosSafariInBrowser(nav(ANDROID_CHROME, 5))).toBe(false);
  });
});
