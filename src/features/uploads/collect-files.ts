/**
 * Turns what the user dropped or pasted into a flat list of files, walking dropped folders (every level).
 * Entries must be taken from the DataTransfer synchronously, inside the event handler: after the first await
 * the browser empties it.
 */
export function entriesFromDataTransfer(dt: DataTransfer): { entries: FileSystemEntry[]; files: File[] } {
  const entries: FileSystemEntry[] = [];
  const files: File[] = [];
  for (const item of Array.from(dt.items)) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry) entries.push(entry);
    else {
      const f = item.getAsFile();
      if (f) files.push(f);
    }
  }
  if (entries.length === 0 && files.length === 0) files.push(...Array.from(dt.files));
  return { entries, files };
}

export async function filesFromEntries(entries: FileSystemEntry[]): Promise<File[]> {
  const out: File[] = [];
  const walk = async (entry: FileSystemEntry): Promise<void> => {
    if (entry.isFile) {
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
      if (!isSystemJunk(file.name)) out.push(file);
    } else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      // readEntries returns at most 100 entries per call: keep reading until it returns none.
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
        if (batch.length === 0) break;
        for (const child of batch) await walk(child);
      }
    }
  };
  for (const e of entries) await walk(e);
  return out;
}

/** Files operating systems leave in folders that nobody means to share. */
export function isSystemJunk(name: string): boolean {
  return name === '.DS_Store' || name === 'Thumbs.db' || name === 'desktop.ini' || name.startsWith('._');
}

export async function filesFromDataTransfer(dt: DataTransfer): Promise<File[]> {
  const { entries, files } = entriesFromDataTransfer(dt);
  const walked = await filesFromEntries(entries);
  return [...files, ...walked];
}
