import type { ReactNode } from 'react';

/** What a modal dialog is given: the shell (dialog.tsx) and the panel it loads on first open (dialog-panel.tsx). */
export interface DialogProps {
  open: boolean;
  /** Asked on Escape; the owner may refuse by keeping `open` (say, while saving). */
  onClose: () => void;
  title: string;
  children: ReactNode;
  className?: string;
}
