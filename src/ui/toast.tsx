import * as RadixToast from '@radix-ui/react-toast';
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { Icon } from './icon';

export interface ToastMessage {
  title: string;
  description?: string;
  tone?: 'info' | 'error';
}

type Show = (message: ToastMessage) => void;
const ToastContext = createContext<Show | null>(null);

/**
 * Short notices ("Link copied") that come and go on their own, announced politely to screen readers (errors
 * assertively). F8 moves focus to them; each has a Close button and pauses while hovered or focused.
 */
export function ToastProvider({ children, duration = 5000 }: { children: ReactNode; duration?: number }) {
  const [toasts, setToasts] = useState<(ToastMessage & { id: number })[]>([]);
  const show = useCallback<Show>((message) => setToasts((list) => [...list, { ...message, id: Date.now() + Math.random() }]), []);
  return (
    <ToastContext.Provider value={show}>
      <RadixToast.Provider duration={duration} label="Notification">
        {children}
        {toasts.map((t) => (
          <RadixToast.Root
            key={t.id}
            className={`toast toast--${t.tone ?? 'info'}`}
            type={t.tone === 'error' ? 'foreground' : 'background'}
            onOpenChange={(open) => !open && setToasts((list) => list.filter((x) => x.id !== t.id))}
          >
            <div className="toast__text">
              <RadixToast.Title className="toast__title">{t.title}</RadixToast.Title>
              {t.description && <RadixToast.Description className="toast__description">{t.description}</RadixToast.Description>}
            </div>
            <RadixToast.Close className="btn btn--ghost btn--icon" aria-label="Close">
              <Icon name="close" />
            </RadixToast.Close>
          </RadixToast.Root>
        ))}
        <RadixToast.Viewport className="toast-viewport" label="Notifications ({hotkey})" />
      </RadixToast.Provider>
    </ToastContext.Provider>
  );
}

/** Shows a toast; needs a `ToastProvider` above. */
export function useToast(): Show {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast needs a ToastProvider above it');
  return show;
}
