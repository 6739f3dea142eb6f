import type { Item } from '../../domain/entities';
import { fileCategory, type FileCategory } from '../../media/file-category';
import type { IconName } from '../../ui/icon';

const ICONS: Record<FileCategory, IconName> = {
  image: 'image',
  'raw-photo': 'image',
  vector: 'image',
  video: 'video',
  audio: 'music',
  pdf: 'text',
  document: 'text',
  spreadsheet: 'text',
  presentation: 'text',
  archive: 'archive',
  'web-page': 'file',
  text: 'text',
  other: 'file',
};

/** The icon for an item shown as a file, by its sniffed type. */
export function fileIconFor(item: Pick<Item, 'kind' | 'mime'>): IconName {
  return item.kind === 'video' ? 'video' : ICONS[fileCategory(item.mime)];
}
