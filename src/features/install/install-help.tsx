import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { log } from '../../lib/log';
import { platformWithoutParsing, readPlatformInput, type InstallPlatform } from '../../lib/platform-input';
import { Icon } from '../../ui/icon';
import { hasInstallSteps } from './help-platform';
import { startInstallPrompt, type InstallPrompt } from './install-prompt';

// The steps are read by few, and only after a click: they load then.
const InstallSheet = lazy(async () => ({ default: (await import('./install-sheet')).InstallSheet }));

/**
 * The header's discreet "Install app": the browser's own prompt where it offered one (Chromium), else a sheet
 * of steps (iPhone and iPad Safari, other iOS browsers, Samsung Internet, Firefox on Android, Safari on a Mac)
 * or an explanation where installing is not possible. Nothing opens by itself; it is gone for good once the
 * app is installed or the person says "don't show again". `platform` comes from the caller so tests can
 * render any browser's help in this one.
 */
export function InstallHelp({ platform, prompt }: { platform: InstallPlatform; prompt: InstallPrompt }) {
  const state = useSyncExternalStore(prompt.subscribe, prompt.getSnapshot);
  const [open, setOpen] = useState(false);
  // Once opened, the sheet stays mounted, so closing it is the dialog's own (focus goes back to the button).
  const [opened, setOpened] = useState(false);
  if (open && !opened) setOpened(true);

  if (platform.kind === 'installed' || state.installed || state.dismissed) return null;

  if (state.event) {
    return (
      <div className="install-help">
        <button type="button" className="btn btn--small install-help__button" onClick={() => void prompt.prompt()}>
          <Icon name="download" size={16} /> <span>Install app</span>
        </button>
        <button type="button" className="btn btn--ghost btn--small install-help__dismiss" aria-label="Don’t suggest installing again" onClick={() => prompt.dismiss()}>
          <Icon name="close" size={16} />
        </button>
      </div>
    );
  }

  // Chromium without its prompt: not installable yet, or already installed; either way there is nothing to say.
  if (!hasInstallSteps(platform)) return null;

  return (
    <div className="install-help">
      <button type="button" className="btn btn--small install-help__button" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <Icon name="download" size={16} /> <span>Install app</span>
      </button>
      {opened && (
        <Suspense fallback={null}>
          <InstallSheet
            platform={platform}
            open={open}
            onClose={() => setOpen(false)}
            onDismiss={() => {
              setOpen(false);
              prompt.dismiss();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}

/**
 * The help for this browser, with the prompt main.tsx started listening for. Where the client hints do not
 * settle it, the user agent's parser loads first, and the help shows once it has read it.
 */
export function AppInstallHelp() {
  const [input] = useState(() => readPlatformInput(window));
  const [platform, setPlatform] = useState(() => platformWithoutParsing(input));
  useEffect(() => {
    if (platform) return;
    let live = true;
    import('../../lib/platform').then(
      ({ installPlatform }) => live && setPlatform(installPlatform(input)),
      (e: unknown) => log.warn('Install help could not load', e),
    );
    return () => {
      live = false;
    };
  }, [input, platform]);
  return platform ? <InstallHelp platform={platform} prompt={startInstallPrompt(window)} /> : null;
}
