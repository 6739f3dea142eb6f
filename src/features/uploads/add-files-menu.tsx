import { useEffect, useId, useRef } from 'react';
import { Icon } from '../../ui/icon';
import { Menu, MenuItem } from '../../ui/menu';

/** Add: files, a whole folder, or the camera (phones open it straight from `capture`). */
export function AddFilesMenu({ onFiles }: { onFiles: (files: File[]) => void }) {
  const id = useId();
  const folderRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    // webkitdirectory is not a React prop; set it on the element.
    folderRef.current?.setAttribute('webkitdirectory', '');
  }, []);

  const take = (input: HTMLInputElement) => {
    const files = Array.from(input.files ?? []);
    input.value = '';
    if (files.length) onFiles(files);
  };
  // The inputs stay outside the menu, which is gone once a choice is made; the chooser opens from the choice's
  // own click or key press, as browsers require.
  const choose = (inputId: string) => document.getElementById(inputId)?.click();

  return (
    <>
      <Menu
        trigger={
          <button type="button" className="btn btn--primary">
            <Icon name="upload" /> Add
          </button>
        }
      >
        <MenuItem onSelect={() => choose(`${id}-files`)}>
          <Icon name="file" /> Files…
        </MenuItem>
        <MenuItem onSelect={() => choose(`${id}-folder`)}>
          <Icon name="folder" /> Folder…
        </MenuItem>
        <MenuItem onSelect={() => choose(`${id}-camera`)}>
          <Icon name="camera" /> Camera
        </MenuItem>
      </Menu>
      <input id={`${id}-files`} aria-label="Add files" data-testid="add-files-input" className="visually-hidden" type="file" multiple tabIndex={-1} onChange={(e) => take(e.currentTarget)} />
      <input id={`${id}-folder`} aria-label="Add a folder" ref={folderRef} className="visually-hidden" type="file" multiple tabIndex={-1} onChange={(e) => take(e.currentTarget)} />
      <input id={`${id}-camera`} aria-label="Take a photo or video" className="visually-hidden" type="file" accept="image/*,video/*" capture="environment" tabIndex={-1} onChange={(e) => take(e.currentTarget)} />
    </>
  );
}
