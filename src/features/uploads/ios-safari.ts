/**
 * iOS and iPadOS Safari (not added to the Home Screen) erase what a site stored after seven days without a
 * visit, the upload queue's files included. A local check only: iPadOS in desktop mode says "Macintosh" but
 * has a touch screen; other iOS browsers name themselves (CriOS, FxiOS, EdgiOS…).
 */
export function isIosSafariInBrowser(nav: Navigator = navigator, standalone = matchMedia('(display-mode: standalone)').matches): boolean {
  const ua = nav.userAgent;
  const ios = /\b(iPhone|iPad|iPod)\b/.test(ua) || (/\bMacintosh\b/.test(ua) && nav.maxTouchPoints > 1);
  if (!ios || !/\bSafari\//.test(ua) || /\b(CriOS|FxiOS|EdgiOS|OPiOS|GSA|YaBrowser|DuckDuckGo)\b/.test(ua)) return false;
  const homeScreen = (nav as Navigator & { standalone?: boolean }).standalone === true;
  return !homeScreen && !standalone;
}
