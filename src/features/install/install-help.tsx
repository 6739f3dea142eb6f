import { useState, useSyncExternalStore } from 'react';
import { installPlatform, readPlatformInput, type InstallPlatform } from '../../lib/platform';
import { Dialog } from '../../ui/dialog';
import { Icon } from '../../ui/icon';
import { startInstallPrompt, type InstallPrompt } from './install-prompt';
import { hasInstallSteps, InstallSteps, installStepsTitle } from './install-steps';

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
      <Dialog open={open} onClose={() => setOpen(false)} title={installStepsTitle(platform)} className="install-sheet">
        <InstallSteps platform={platform} />
        <div className="dialog__actions">
          <button type="button" className="btn" onClick={() => { setOpen(false); prompt.dismiss(); }}>
            Don’t show again
          </button>
          <button type="button" className="btn btn--primary" onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
      </Dialog>
    </div>
  );
}

/** The help for this browser, with the prompt main.tsx started listening for. */
export function AppInstallHelp() {
  const [platform] = useState(() => installPlatform(readPlatformInput(window)));
  return <InstallHelp platform={platform} prompt={startInstallPrompt(window)} />;
}
