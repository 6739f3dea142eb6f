import { useAlbumBackend } from '../../backend/backend-context';
import { objectKeys } from '../../backend/ports';
import type { Album, Item } from '../../domain/entities';
import { useId, useState } from 'react';
import { Dialog } from '../../ui/dialog';
import { Icon } from '../../ui/icon';
import { downloadItems } from './download-items';
import { Menu, MenuItem } from '../../ui/menu';
import { loadAlbumItems } from './album-files';
import { DownloadPanel } from './download-panel';
import { openMemberOriginals } from './member-files';
import type { DownloadMode } from './run-download';
import { canPickFolder } from './save-targets';
import { useDownload } from './use-download';
import { zipItemOf } from './zip-plan';

/** A member's downloads of an album: the whole album (as a ZIP or into a folder) or a selection as a ZIP. */
export function useAlbumDownload(album: Album) {
  const backend = useAlbumBackend();
  const download = useDownload();
  const start = (mode: DownloadMode, selected?: Item[], sidecars?: SidecarNaming) => {
    let items: Item[] = selected ?? [];
    download.start({
      name: album.title,
      mode,
      ...(sidecars ? { sidecars } : {}),
      ...(sidecars && backend.capabilities.storage.sidecars
        ? { keptSidecar: async (itemId: string, signal: AbortSignal) => (await backend.files.read(objectKeys.sidecar(album.id, itemId), { signal })).text() }
        : {}),
      load: async (signal) => {
        if (!selected) items = await loadAlbumItems(backend.items, album.id, signal);
        return items.map(zipItemOf);
      },
      open: (entry, signal) => openMemberOriginals(backend, items)(entry, signal),
    });
  };
  /** A selection: one file is saved as itself, several become one ZIP (the selection stays, so a failed download can be tried again). */
  const downloadSelection = async (chosen: Item[]) => {
    if (chosen.length === 1) await downloadItems(backend, chosen);
    else start('zip', chosen);
  };
  const panel = <DownloadPanel state={download.state} onCancel={download.cancel} onDismiss={download.dismiss} />;
  return { start, downloadSelection, busy: download.busy, panel };
}

type SidecarNaming = 'full' | 'stem';

/**
 * The header's Download menu: the album as one ZIP, or (where the browser can write into a folder) file by file;
 * either with XMP sidecars beside the photos, named as the person's desktop tool reads them.
 */
export function AlbumDownloadMenu({ busy, onStart, disabled }: { busy: boolean; disabled?: boolean; onStart: (mode: DownloadMode, sidecars?: SidecarNaming) => void }) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <SidecarDownloadDialog
        open={asking}
        onClose={() => setAsking(false)}
        onStart={(mode, naming) => {
          setAsking(false);
          onStart(mode, naming);
        }}
      />
      <Menu
        trigger={
          <button type="button" className="btn" disabled={busy || disabled}>
            <Icon name="download" /> Download
          </button>
        }
      >
        <MenuItem onSelect={() => onStart('zip')}>Download album as ZIP</MenuItem>
        {canPickFolder() && <MenuItem onSelect={() => onStart('folder')}>Save album into a folder…</MenuItem>}
        <MenuItem onSelect={() => setAsking(true)}>With XMP sidecars…</MenuItem>
      </Menu>
    </>
  );
}

/** How to download with sidecars: as a ZIP or into a folder, and which naming the person's desktop tool reads. */
function SidecarDownloadDialog({ open, onClose, onStart }: { open: boolean; onClose: () => void; onStart: (mode: DownloadMode, naming: SidecarNaming) => void }) {
  const id = useId();
  const [mode, setMode] = useState<DownloadMode>('zip');
  const [naming, setNaming] = useState<SidecarNaming>('full');
  const choice = (name: string, value: string, checked: boolean, set: () => void, label: string, hint?: string) => (
    <label>
      <input type="radio" name={name} value={value} checked={checked} onChange={set} />
      <span>
        {label}
        {hint && <span className="choice-list__about muted">{hint}</span>}
      </span>
    </label>
  );
  return (
    <Dialog open={open} onClose={onClose} title="Download with XMP sidecars">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onStart(mode, naming);
        }}
      >
        <p className="muted" style={{ marginTop: 0 }}>
          Each photo gets a small .xmp file beside it with its title, description, rating, label, keywords and date,
          for Lightroom, darktable and other desktop tools. Nothing about where a photo was taken is written.
        </p>
        <fieldset className="choice-list">
          <legend>Sidecar names</legend>
          {choice(`${id}-naming`, 'full', naming === 'full', () => setNaming('full'), 'IMG_1.JPG.xmp', 'darktable, digiKam, Immich')}
          {choice(`${id}-naming`, 'stem', naming === 'stem', () => setNaming('stem'), 'IMG_1.xmp', 'Lightroom, Capture One')}
        </fieldset>
        {canPickFolder() && (
          <fieldset className="choice-list">
            <legend>Save as</legend>
            {choice(`${id}-mode`, 'zip', mode === 'zip', () => setMode('zip'), 'One ZIP file')}
            {choice(`${id}-mode`, 'folder', mode === 'folder', () => setMode('folder'), 'Files in a folder')}
          </fieldset>
        )}
        <div className="dialog__actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn--primary">Download</button>
        </div>
      </form>
    </Dialog>
  );
}
