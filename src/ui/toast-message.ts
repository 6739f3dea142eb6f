/** A short notice, as asked for and as shown (with the id the list tells them apart by). */
export interface ToastMessage {
  title: string;
  description?: string;
  tone?: 'info' | 'error';
}

export type ShownToast = ToastMessage & { id: number };
