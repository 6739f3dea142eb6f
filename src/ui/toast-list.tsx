import * as RadixToast from '@radix-ui/react-toast';
import clsx from 'clsx';
import { Icon } from './icon';
import type { ShownToast } from './toast-message';

/** The toasts on screen, on Radix Toast; loaded by `ToastProvider` with the first toast. */
export default function ToastList({ toasts, duration, onDismiss }: { toasts: ShownToast[]; duration: number; onDismiss: (id: number) => void }) {
  return (
    <RadixToast.Provider duration={duration} label="Notification">
      {toasts.map((t) => (
        <RadixToast.Root
          key={t.id}
          className={clsx('toast', t.tone === 'error' && 'toast--error')}
          type={t.tone === 'error' || t.action ? 'foreground' : 'background'}
          {...(t.duration ? { duration: t.duration } : {})}
          onOpenChange={(open) => !open && onDismiss(t.id)}
        >
          <div className="toast__text">
            <RadixToast.Title className="toast__title">{t.title}</RadixToast.Title>
            {t.description && <RadixToast.Description className="toast__description">{t.description}</RadixToast.Description>}
          </div>
          {t.action && (
            <RadixToast.Action className="btn" altText={t.action.altText} onClick={t.action.onAction}>
              {t.action.label}
            </RadixToast.Action>
          )}
          <RadixToast.Close className="btn btn--ghost btn--icon" aria-label="Close">
            <Icon name="close" />
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="toast-viewport" label="Notifications ({hotkey})" />
    </RadixToast.Provider>
  );
}
