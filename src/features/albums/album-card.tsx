import { Link } from 'react-router';
import type { Album } from '../../domain/entities';
import { formatBytes, formatCount } from '../../lib/format';
import { Icon } from '../../ui/icon';
import { ThumbhashImage } from '../../ui/thumbhash-image';

/** The badge's text: the count, or "99+" from 100 (the backend counts no further). */
export function unreadLabel(unread: number): string {
  return unread >= 100 ? '99+' : String(unread);
}

export function AlbumCard({ album, coverUrl, unread = 0 }: { album: Album; coverUrl: string | undefined; unread?: number }) {
  return (
    <Link className="album-card" to={`/albums/${album.id}`}>
      {unread > 0 && (
        <span className="album-card__badge" data-testid="unread-badge" title={`${unreadLabel(unread)} new since you last opened it`}>
          <span aria-hidden="true">{unreadLabel(unread)}</span>
          <span className="visually-hidden">{`${unreadLabel(unread)} new`}</span>
        </span>
      )}
      <div className="album-card__cover">
        {coverUrl ? (
          <img src={coverUrl} alt="" loading="lazy" decoding="async" />
        ) : album.coverThumbhash ? (
          <ThumbhashImage hash={album.coverThumbhash} className="" />
        ) : (
          <Icon name="image" size={40} />
        )}
      </div>
      <span className="album-card__title">{album.title}</span>
      <span className="album-card__meta">
        {formatCount(album.itemCount, 'item', 'items')} · {formatBytes(album.bytesTotal)}
      </span>
    </Link>
  );
}
