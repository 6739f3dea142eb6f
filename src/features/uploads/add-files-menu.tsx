import { useId, useRef, useState, useEffect } from 'react';
import { Icon } from '../../ui/icon';

/** Add: files, a whole folder, or the camera (phones open it straight from `capture`). */
export function AddFilesMenu({ onFiles }: { onFiles: (files: File[]) => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  const folderRef = useRef<HTMLInputElement>(null);

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

  return (
    <div className="menu" ref={menuRef} onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
      <button type="button" className="btn btn--primary" aria-haspopup="true" aria-expanded={open} aria-controls={`${id}-menu`} onClick={() => setOpen((o) => !o)}>
        <Icon name="upload" /> Add
      </button>
      <div id={`${id}-menu`} className="menu__list" hidden={!open}>
        <label className="btn" htmlFor={`${id}-files`}>
          <Icon name="file" /> Files…
        </label>
        <label className="btn" htmlFor={`${id}-folder`}>
          <Icon name="folder" /> Folder…
        </label>
        <label className="btn" htmlFor={`${id}-camera`}>
          <Icon name="camera" /> Camera
        </label>
      </div>
      <input id={`${id}-files`} aria-label="Add files" data-testid="add-files-input" className="visually-hidden" type="file" multiple tabIndex={-1} onChange={(e) => take(e.currentTarget)} />
      <input id={`${id}-folder`} aria-label="Add a folder" ref={folderRef} className="visually-hidden" type="file" multiple tabIndex={-1} onChange={(e) => take(e.currentTarget)} />
      <input id={`${id}-camera`} aria-label="Take a photo or video" className="visually-hidden" type="file" accept="image/*,video/*" capture="environment" tabIndex={-1} onChange={(e) => take(e.currentTarget)} />
    </div>
  );
}
