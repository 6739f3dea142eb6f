import { useEffect, useRef, type ReactNode } from 'react';

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
      onClose={onClose}
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
