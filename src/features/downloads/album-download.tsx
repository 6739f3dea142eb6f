import { useAlbumBackend } from '../../backend/backend-context';
import type { Album, Item } from '../../domain/entities';
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
  const start = (mode: DownloadMode, selected?: Item[]) => {
    let items: Item[] = selected ?? [];
    download.start({
      name: album.title,
      mode,
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

/** The header's Download menu: the album as one ZIP, or (where the browser can write into a folder) file by file. */
export function AlbumDownloadMenu({ busy, onStart, disabled }: { busy: boolean; disabled?: boolean; onStart: (mode: DownloadMode) => void }) {
  return (
    <Menu
      trigger={
        <button type="button" className="btn" disabled={busy || disabled}>
          <Icon name="download" /> Download
        </button>
      }
    >
      <MenuItem onSelect={() => onStart('zip')}>Download album as ZIP</MenuItem>
      {canPickFolder() && <MenuItem onSelect={() => onStart('folder')}>Save album into a folder…</MenuItem>}
    </Menu>
  );
}
