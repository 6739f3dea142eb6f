import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * A modal on the native <dialog>: focus is trapped and restored, Escape closes it, and the rest of the page
 * is inert while it is open — the browser does all of that, accessibly.
 */
export function Dialog({ open, onClose, title, children, className }: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  className?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const wanted = useRef(open);
  useLayoutEffect(() => {
    wanted.current = open;
  }, [open]);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={`dialog ${className ?? ''}`}
      aria-label={title}
      onClose={() => {
        onClose();
        // The browser closes a dialog on a repeated Escape even when its cancel is refused; if the owner still
        // wants it open (say, while saving), open it again. React has applied onClose's update by then.
        queueMicrotask(() => {
          const d = ref.current;
          if (d?.isConnected && wanted.current && !d.open) d.showModal();
        });
      }}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <h2 className="dialog__title">{title}</h2>
          {children}
        </>
      )}
    </dialog>
  );
}
