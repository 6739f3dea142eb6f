import * as RadixMenu from '@radix-ui/react-dropdown-menu';
import type { ReactElement, ReactNode } from 'react';

/**
 * A menu button: Enter, Space or ArrowDown opens it onto its first item, arrow keys and typed letters move
 * between items, Enter picks one, Escape closes it, and focus goes back to the button. `trigger` is the
 * button (a <button> element); the menu takes its name from it.
 */
export function Menu({
  trigger,
  children,
  align = 'end',
  modal = true,
}: {
  trigger: ReactElement;
  children: ReactNode;
  align?: 'start' | 'end';
  /** Not modal: the page behind is not hidden from assistive technology while it is open (focus still moves into it). */
  modal?: boolean;
}) {
  return (
    <RadixMenu.Root modal={modal}>
      <RadixMenu.Trigger asChild>{trigger}</RadixMenu.Trigger>
      <RadixMenu.Portal>
        <RadixMenu.Content className="menu__list" align={align} sideOffset={4} collisionPadding={8}>
          {children}
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}

/** One choice; `onSelect` runs from the user's click or key press, so it may open a file chooser. */
export function MenuItem({ onSelect, disabled, children }: { onSelect: () => void; disabled?: boolean; children: ReactNode }) {
  return (
    <RadixMenu.Item className="menu__item" disabled={disabled} onSelect={onSelect}>
      {children}
    </RadixMenu.Item>
  );
}
