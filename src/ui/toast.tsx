import { createContext, lazy, Suspense, useCallback, useContext, useState, type ReactNode } from 'react';
import type { ShownToast, ToastMessage } from './toast-message';

type Show = (message: ToastMessage) => void;
const ToastContext = createContext<Show | null>(null);

const ToastList = lazy(() => import('./toast-list'));
let nextId = 1;

/**
 * Short notices ("Link copied") that come and go on their own, announced politely to screen readers (errors
 * assertively). F8 moves focus to them; each has a Close button and pauses while hovered or focused. Mounted
 * once around the app; the toasts' code loads with the first toast, so it costs the first screen nothing.
 */
export function ToastProvider({ children, duration = 5000 }: { children: ReactNode; duration?: number }) {
  const [toasts, setToasts] = useState<ShownToast[]>([]);
  const [used, setUsed] = useState(false);
  const show = useCallback<Show>((message) => {
    setUsed(true);
    setToasts((list) => [...list.filter((t) => message.key === undefined || t.key !== message.key), { ...message, id: nextId++ }]);
  }, []);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      {used && (
        <Suspense fallback={null}>
          <ToastList toasts={toasts} duration={duration} onDismiss={dismiss} />
        </Suspense>
      )}
    </ToastContext.Provider>
  );
}

/** Shows a toast; needs a `ToastProvider` above (the app has one). */
export function useToast(): Show {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast needs a ToastProvider above it');
  return show;
}
