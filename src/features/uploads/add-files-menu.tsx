import { useId, useRef, useState, useEffect } from 'react';
import { Icon } from '../../ui/icon';

/** Add: files, a whole folder, or the camera (phones open it straight from `capture`). */
export function AddFilesMenu({ onFiles }: { onFiles: (files: File[]) => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  const folderRef = useRef<HTMLInputElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    // webkitdirectory is not a React prop; set it on the element.
    folderRef.current?.setAttribute('webkitdirectory', '');
  }, []);
  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (!menuRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    return () => document.removeEventListener('pointerdown', close);
  }, [open]);

  const take = (input: HTMLInputElement) => {
    const files = Array.from(input.files ?? []);
    input.value = '';
    setOpen(false);
    if (files.length) onFiles(files);
  };
  // Buttons, not labels for the inputs: a label cannot take focus, so the choices were out of keyboard reach.
  const choose = (inputId: string) => document.getElementById(inputId)?.click();

  return (
    <div
      className="menu"
      ref={menuRef}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !open) return;
        e.preventDefault();
        setOpen(false);
        buttonRef.current?.focus();
      }}
    >
      <button ref={buttonRef} type="button" className="btn btn--primary" aria-haspopup="true" aria-expanded={open} aria-controls={`${id}-menu`} onClick={() => setOpen((o) => !o)}>
        <Icon name="upload" /> Add
      </button>
      <div id={`${id}-menu`} className="menu__list" hidden={!open}>
        <button type="button" className="btn" onClick={() => choose(`${id}-files`)}>
          <Icon name="file" /> Files…
        </button>
        <button type="button" className="btn" onClick={() => choose(`${id}-folder`)}>
          <Icon name="folder" /> Folder…
        </button>
        <button type="button" className="btn" onClick={() => choose(`${id}-camera`)}>
          <Icon name="camera" /> Camera
        </button>
      </div>
      <input id={`${id}-files`} aria-label="Add files" data-testid="add-files-input" className="visually-hidden" type="file" multiple tabIndex={-1} onChange={(e) => take(e.currentTarget)} />
      <input id={`${id}-folder`} aria-label="Add a folder" ref={folderRef} className="visually-hidden" type="file" multiple tabIndex={-1} onChange={(e) => take(e.currentTarget)} />
      <input id={`${id}-camera`} aria-label="Take a photo or video" className="visually-hidden" type="file" accept="image/*,video/*" capture="environment" tabIndex={-1} onChange={(e) => take(e.currentTarget)} />
    </div>
  );
}
