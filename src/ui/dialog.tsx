import { lazy, Suspense, useState } from 'react';
import type { DialogProps } from './dialog-props';

const DialogPanel = lazy(() => import('./dialog-panel'));

/**
 * A modal dialog: focus moves in and stays in, Escape asks to close, the page behind is hidden from assistive
 * technology, and focus goes back to where it was on close. Its code loads on first open, so screens that only
 * might show a dialog (the albums screen's "New album") do not carry it on their first load.
 */
export function Dialog(props: DialogProps) {
  const [opened, setOpened] = useState(props.open);
  const [wasOpen, setWasOpen] = useState(props.open);
  const [returnTo, setReturnTo] = useState<Element | null>(() => (props.open ? document.activeElement : null));
  if (props.open !== wasOpen) {
    // Noted while rendering, before anything in the dialog (an autoFocus field) can take focus.
    setWasOpen(props.open);
    if (props.open) {
      setOpened(true);
      setReturnTo(document.activeElement);
    }
  }
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <DialogPanel {...props} returnTo={returnTo} />
    </Suspense>
  );
}
