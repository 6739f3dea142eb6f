/** A short notice, as asked for and as shown (with the id the list tells them apart by). */
export interface ToastMessage {
  title: string;
  description?: string;
  tone?: 'info' | 'error';
  /** One button beside the words ("Undo"); `altText` says how to do it without the toast, for screen readers. */
  action?: { label: string; altText: string; onAction: () => void };
  /** A toast with the same key takes this one's place (the last edit's Undo, not a pile of them). */
  key?: string;
  /** How long it stays, in ms, when not the list's default. */
  duration?: number;
}

export type ShownToast = ToastMessage & { id: number };
