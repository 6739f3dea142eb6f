/**
 * A link's visitor never learns where an item's bytes live: the rows carry URLs, not storage keys. The grid
 * and the viewer still speak in object keys (`files.urls(keys)`), so the visitor's adapter gives each URL an
 * opaque key of its own, `shared/<item id>/<variant>`, that it maps back to a URL and means nothing to a bucket.
 */
import type { SharedVariant } from '../link-types';

const PREFIX = 'shared/';

export function sharedKey(itemId: string, variant: SharedVariant): string {
  return `${PREFIX}${itemId}/${variant}`;
}

export function parseSharedKey(key: string): { itemId: string; variant: SharedVariant } | null {
  if (!key.startsWith(PREFIX)) return null;
  const rest = key.slice(PREFIX.length);
  const slash = rest.lastIndexOf('/');
  if (slash <= 0) return null;
  const variant = rest.slice(slash + 1);
  if (variant !== 'original' && variant !== 'preview' && variant !== 'thumb') return null;
  return { itemId: rest.slice(0, slash), variant };
}
