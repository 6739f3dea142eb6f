import { useSyncExternalStore } from 'react';
import { Link, useNavigate } from 'react-router';
import type { PresenceViewer, Album } from '../../domain/entities';
import { AlbumActions, useAlbumActions } from '../../features/albums/album-actions';
import { AlbumDownloadMenu } from '../../features/downloads/album-download';
import type { DownloadMode } from '../../features/downloads/run-download';
import { canPickFolder } from '../../features/downloads/save-targets';
import { AddFilesMenu } from '../../features/uploads/add-files-menu';
import { Icon } from '../../ui/icon';
import { Menu, MenuItem } from '../../ui/menu';
import { Presence } from '../../ui/presence';

/** Below this width the header's buttons would wrap onto lines of their own. */
const PHONE_QUERY = '(max-width: 600px)';

function subscribe(onChange: () => void): () => void {
  const query = matchMedia(PHONE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

function usePhoneWidth(): boolean {
  return useSyncExternalStore(subscribe, () => matchMedia(PHONE_QUERY).matches);
}

interface Props {
  album: Album;
  trashed: boolean;
  canAdd: boolean;
  viewers: PresenceViewer[];
  onFiles: (files: File[]) => void;
  downloadBusy: boolean;
  onDownload: (mode: DownloadMode, sidecars?: 'full' | 'stem') => void;
}

/**
 * The album header's actions. On a computer, every action is a button. On a phone, as in the photo apps
 * people know there, only who is looking and Add stay in sight, and the rest (download, settings, edit,
 * delete) are one "More" menu away, so the title keeps the header to itself.
 */
export function AlbumHeaderActions(props: Props) {
  const phone = usePhoneWidth();
  return (
    <div className={phone ? 'page-header__actions album-header__actions' : 'page-header__actions'}>
      <Presence viewers={props.viewers} />
      {props.canAdd && <AddFilesMenu onFiles={props.onFiles} />}
      {phone ? <PhoneActions {...props} /> : <ComputerActions {...props} />}
    </div>
  );
}

function ComputerActions({ album, trashed, downloadBusy, onDownload }: Props) {
  if (trashed) return null;
  return (
    <>
      <AlbumDownloadMenu busy={downloadBusy} disabled={album.itemCount === 0} onStart={onDownload} />
      <Link className="btn" to={`/albums/${album.id}/settings`}>
        <Icon name="settings" /> Settings
      </Link>
      <AlbumActions album={album} />
    </>
  );
}

function PhoneActions({ album, trashed, downloadBusy, onDownload }: Props) {
  const actions = useAlbumActions(album);
  const navigate = useNavigate();
  if (trashed) return null;
  const noDownload = downloadBusy || album.itemCount === 0;
  return (
    <>
      <Menu
        modal={false}
        trigger={
          <button type="button" className="btn btn--icon" aria-label="More album actions">
            <Icon name="more" />
          </button>
        }
      >
        <MenuItem onSelect={() => onDownload('zip')} disabled={noDownload}>
          <Icon name="download" /> Download album as ZIP
        </MenuItem>
        {canPickFolder() && (
          <MenuItem onSelect={() => onDownload('folder')} disabled={noDownload}>
            <Icon name="folder" /> Save album into a folder…
          </MenuItem>
        )}
        <MenuItem onSelect={() => void navigate(`/albums/${album.id}/settings`)}>
          <Icon name="settings" /> Settings
        </MenuItem>
        {actions.canEdit && (
          <MenuItem onSelect={actions.edit}>
            <Icon name="pencil" /> Edit
          </MenuItem>
        )}
        {actions.canDelete && (
          <MenuItem onSelect={actions.askDelete}>
            <Icon name="trash" /> Delete album
          </MenuItem>
        )}
      </Menu>
      {actions.dialogs}
    </>
  );
}
