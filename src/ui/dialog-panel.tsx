import * as RadixDialog from '@radix-ui/react-dialog';
import clsx from 'clsx';
import type { DialogProps } from './dialog-props';

/** The dialog itself, on Radix; loaded by `Dialog` when first opened. */
export default function DialogPanel({ open, onClose, title, children, className, returnTo }: DialogProps & { returnTo: Element | null }) {
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={clsx('dialog', className)}
          aria-describedby={undefined}
          // A stray click beside a form must not throw away what was typed; Escape and the buttons close it.
          onInteractOutside={(e) => e.preventDefault()}
          onCloseAutoFocus={(e) => {
            // Opened from code, not from a Radix trigger: give focus back to what had it when the dialog opened.
            e.preventDefault();
            if (returnTo instanceof HTMLElement && returnTo.isConnected) returnTo.focus();
          }}
        >
          <RadixDialog.Title className="dialog__title">{title}</RadixDialog.Title>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
