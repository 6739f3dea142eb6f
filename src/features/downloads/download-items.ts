import type { FilesPort } from '../../backend/ports';
import type { Item } from '../../domain/entities';

/** Saves originals under their own filenames (the name comes from the row; the key never holds it). */
export async function downloadItems(files: Pick<FilesPort, 'urls'>, items: Item[]): Promise<void> {
  for (const item of items) {
    const urls = await files.urls([item.originalKey], { downloadAs: item.filename });
    const url = urls.get(item.originalKey);
    if (!url) continue;
    const a = document.createElement('a');
    a.href = url;
    a.download = item.filename;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
    // Browsers drop rapid successive downloads; give each a moment.
    if (items.length > 1) await new Promise((r) => setTimeout(r, 250));
  }
}
