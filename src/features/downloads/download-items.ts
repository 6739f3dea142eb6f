import type { AlbumBackend } from '../../backend/ports';
import type { Item } from '../../domain/entities';
import { openOriginal } from './member-files';

/**
 * Saves originals under their own filenames (the name comes from the row; the key never holds it). An original
 * stored compressed is inflated here first: its stored bytes are not the file, and no URL of the bucket could
 * give the file itself ([Note: Text files are stored gzip-compressed]).
 */
export async function downloadItems(backend: Pick<AlbumBackend, 'capabilities' | 'files'>, items: Item[]): Promise<void> {
  for (const item of items) {
    let href: string;
    let made: string | null = null;
    if (item.storedEncoding) {
      const source = await openOriginal(backend, item, new AbortController().signal);
      const blob = source instanceof Blob ? source : await new Response(source).blob();
      href = made = URL.createObjectURL(new Blob([blob], { type: 'application/octet-stream' }));
    } else {
      const url = (await backend.files.urls([item.originalKey], { downloadAs: item.filename })).get(item.originalKey);
      if (!url) continue;
      href = url;
    }
    const a = document.createElement('a');
    a.href = href;
    a.download = item.filename;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
    // The browser has taken the file once the click is handled; the URL can go a little later.
    if (made) setTimeout(() => URL.revokeObjectURL(made), 60_000);
    // Browsers drop rapid successive downloads; give each a moment.
    if (items.length > 1) await new Promise((r) => setTimeout(r, 250));
  }
}
