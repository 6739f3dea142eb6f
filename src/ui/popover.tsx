import * as RadixPopover from '@radix-ui/react-popover';
import clsx from 'clsx';
import type { ReactElement, ReactNode } from 'react';

/**
 * A small panel beside its button (say, a share link with a Copy button): focus moves in when it opens,
 * Escape or a click elsewhere closes it, and focus goes back to the button. `trigger` is a <button> element;
 * `label` names the panel for assistive technology.
 */
export function Popover({ trigger, label, children, open, onOpenChange, className }: {
  trigger: ReactElement;
  label: string;
  children: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  className?: string;
}) {
  return (
    <RadixPopover.Root open={open} onOpenChange={onOpenChange}>
      <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content className={clsx('popover', className)} aria-label={label} align="end" sideOffset={6} collisionPadding={8}>
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}
