import type { Item } from '../../backend/ports';
import type { IconName } from '../../ui/icon';

/** The icon for an item shown as a file, by its (sniffed) type. */
export function fileIconFor(item: Pick<Item, 'kind' | 'mime'>): IconName {
  if (item.kind === 'video') return 'video';
  const m = item.mime;
  if (m.startsWith('image/')) return 'image';
  if (m.startsWith('audio/')) return 'music';
  if (m.startsWith('video/')) return 'video';
  if (m === 'application/zip' || m.includes('compressed') || m.includes('tar') || m.includes('7z') || m.includes('rar')) return 'archive';
  if (m.startsWith('text/') || m === 'application/json' || m === 'application/pdf') return 'text';
  return 'file';
}
