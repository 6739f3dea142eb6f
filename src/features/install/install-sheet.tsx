import { Dialog } from '../../ui/dialog';
import type { HelpPlatform } from './help-platform';
import { InstallSteps, installStepsTitle } from './install-steps';

/** The sheet of steps the header's "Install app" opens where the browser has no prompt of its own. */
export function InstallSheet({ platform, open, onClose, onDismiss }: {
  platform: HelpPlatform;
  open: boolean;
  onClose: () => void;
  /** "Don't show again". */
  onDismiss: () => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={installStepsTitle(platform)} className="install-sheet">
      <InstallSteps platform={platform} />
      <div className="dialog__actions">
        <button type="button" className="btn" onClick={onDismiss}>
          Don’t show again
        </button>
        <button type="button" className="btn btn--primary" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
