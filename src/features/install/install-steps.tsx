import type { ReactNode } from 'react';
import type { HelpPlatform } from './help-platform';

/** The sheet's title, as the person would say what they are about to do. */
export function installStepsTitle(p: HelpPlatform): string {
  switch (p.kind) {
    case 'ios-safari':
    case 'ios-browser':
      return 'Add Shoebox to your Home Screen';
    case 'samsung-internet':
    case 'firefox-android':
      return 'Add Shoebox to your home screen';
    case 'mac-safari':
      return 'Add Shoebox to the Dock';
    case 'in-app':
      return 'Open Shoebox in your browser to install it';
    case 'unsupported':
      return 'Installing Shoebox';
  }
}

/** iOS's Share glyph (a box with an arrow up), drawn here so the step looks like the button to tap. */
function ShareGlyph() {
  return (
    <svg className="install-steps__glyph" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d="M12 3v12M8 7l4-4 4 4M7 10H5v11h14V10h-2" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function AddGlyph() {
  return (
    <svg className="install-steps__glyph" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d="M5 4h14a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1zM12 8v8M8 12h8" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}

function Steps({ children }: { children: ReactNode }) {
  return <ol className="install-steps__list">{children}</ol>;
}

/** What an app on the iOS Home Screen can and cannot do, said before people rely on it. */
function IosLimits({ browser }: { browser: string }) {
  return (
    <div className="install-steps__limits">
      <h3>Good to know on iPhone and iPad</h3>
      <ul>
        <li>
          What a website keeps on the device is deleted after 7 days of browsing without visiting it. Added to the Home Screen, Shoebox
          keeps its uploads waiting to be sent, and albums kept only on this device.
        </li>
        <li>The Home Screen app has its own storage, apart from {browser}: sign in again there. Albums kept only in {browser} stay there.</li>
        <li>Other apps cannot share photos into Shoebox on iPhone and iPad: add them from inside Shoebox instead.</li>
      </ul>
    </div>
  );
}

const APP_NAMES: Record<string, string> = { GSA: 'the Google app' };

/** The steps (or the explanation) for one platform. */
export function InstallSteps({ platform: p }: { platform: HelpPlatform }) {
  switch (p.kind) {
    case 'ios-safari':
      return (
        <div className="install-steps">
          <Steps>
            <li>
              Tap the Share button <ShareGlyph /> {p.device === 'ipad' ? 'at the top, beside the address bar' : 'in the bar at the bottom of the screen'}. If
              you don’t see it, tap ⋯ first.
            </li>
            <li>
              Scroll down the list and tap <strong>Add to Home Screen</strong> <AddGlyph />.
            </li>
            <li>
              Keep <strong>Open as Web App</strong> on if it is shown, and tap <strong>Add</strong>.
            </li>
            <li>Open Shoebox from its icon on your Home Screen.</li>
          </Steps>
          {p.desktopMode && <p className="muted">This works the same with Safari showing desktop websites, as iPad does by default.</p>}
          <IosLimits browser="Safari" />
        </div>
      );
    case 'ios-browser':
      return p.canAddToHomeScreen ? (
        <div className="install-steps">
          <Steps>
            <li>
              Tap the Share button <ShareGlyph /> of {p.browser} (in the address bar, or in its menu).
            </li>
            <li>
              Tap <strong>Add to Home Screen</strong> <AddGlyph />, then <strong>Add</strong>.
            </li>
            <li>Open Shoebox from its icon on your Home Screen.</li>
          </Steps>
          <IosLimits browser={p.browser} />
        </div>
      ) : (
        <div className="install-steps">
          <p>On this version of iOS only Safari can add Shoebox to the Home Screen (other browsers can from iOS 16.4).</p>
          <Steps>
            <li>Open this page in Safari.</li>
            <li>
              Tap the Share button <ShareGlyph />, then <strong>Add to Home Screen</strong>.
            </li>
          </Steps>
          <IosLimits browser="Safari" />
        </div>
      );
    case 'in-app': {
      const app = p.app ? (APP_NAMES[p.app] ?? p.app) : 'another app';
      const browser = p.os === 'iOS' ? 'Safari' : 'Chrome';
      return (
        <div className="install-steps">
          <p>
            Shoebox is open inside {app}, which cannot install it. Open this page in {browser} (look for <strong>Open in browser</strong> in
            the app’s ⋯ or ⋮ menu), then install it from there.
          </p>
        </div>
      );
    }
    case 'samsung-internet':
      return (
        <div className="install-steps">
          <Steps>
            <li>Tap the menu button ≡ at the bottom right.</li>
            <li>
              Tap <strong>Add page to</strong>, then <strong>Home screen</strong>.
            </li>
            <li>Open Shoebox from its icon on your home screen.</li>
          </Steps>
        </div>
      );
    case 'firefox-android':
      return (
        <div className="install-steps">
          <Steps>
            <li>Tap the menu button ⋮.</li>
            <li>
              Tap <strong>Add app to Home screen</strong> (or <strong>Install</strong>), then <strong>Add</strong>.
            </li>
            <li>Open Shoebox from its icon on your home screen.</li>
          </Steps>
        </div>
      );
    case 'mac-safari':
      return (
        <div className="install-steps">
          <Steps>
            <li>
              In the menu bar, choose <strong>File → Add to Dock</strong>.
            </li>
            <li>
              Click <strong>Add</strong>. Shoebox then opens in its own window from the Dock.
            </li>
          </Steps>
          <p className="muted">This needs macOS Sonoma or later. Other websites and Safari’s own data stay apart from the app.</p>
        </div>
      );
    case 'unsupported':
      return (
        <div className="install-steps">
          <p>
            {p.reason === 'firefox-desktop'
              ? 'Firefox on a computer does not install websites as apps.'
              : p.reason === 'old-safari'
                ? 'This version of Safari cannot add websites to the Dock; Safari 17 on macOS Sonoma and later can.'
                : `${p.browser} does not offer to install websites as apps.`}{' '}
            Shoebox works fully here, in a tab.
          </p>
          <p>To have it as an app with its own window and icon, open Shoebox in Chrome or Edge, or in Safari on iPhone, iPad or a Mac.</p>
        </div>
      );
  }
}
