import { useEffect, useState } from 'react';
import { formatBytes, formatCount, safeFilename } from '../../lib/format';
import { Icon } from '../../ui/icon';

/** Enough to recognise a share; the rest are counted (a share may hold hundreds of large photos). */
const SHOWN = 60;

function iconFor(type: string): 'image' | 'video' | 'file' {
  return type.startsWith('image/') ? 'image' : type.startsWith('video/') ? 'video' : 'file';
}

/** Object URLs for the first images, revoked when the list goes away. The files stay on disk: nothing is read. */
function useImageUrls(files: readonly File[]): Map<File, string> {
  const [urls, setUrls] = useState(() => new Map<File, string>());
  useEffect(() => {
    const made = new Map<File, string>();
    for (const f of files.slice(0, SHOWN)) if (f.type.startsWith('image/')) made.set(f, URL.createObjectURL(f));
    setUrls(made);
    return () => {
      for (const url of made.values()) URL.revokeObjectURL(url);
    };
  }, [files]);
  return urls;
}

/** What was shared: how many files, how large, and a thumbnail of each image. */
export function SharedFiles({ files }: { files: readonly File[] }) {
  const urls = useImageUrls(files);
  const total = files.reduce((sum, f) => sum + f.size, 0);
  const rest = files.length - Math.min(files.length, SHOWN);
  return (
    <section className="card" aria-labelledby="shared-files-heading">
      <h2 id="shared-files-heading">
        {formatCount(files.length, 'file', 'files')} · {formatBytes(total)}
      </h2>
      <ul className="shared-files" aria-label="Shared files">
        {files.slice(0, SHOWN).map((f, i) => {
          const url = urls.get(f);
          const name = safeFilename(f.name);
          return (
            <li key={i} className="shared-file">
              {url ? <img className="shared-file__thumb" src={url} alt="" loading="lazy" decoding="async" /> : <span className="shared-file__thumb shared-file__icon"><Icon name={iconFor(f.type)} /></span>}
              <span className="shared-file__name" title={name}>
                {name}
              </span>
              <span className="muted shared-file__size">{formatBytes(f.size)}</span>
            </li>
          );
        })}
      </ul>
      {rest > 0 && <p className="muted">and {formatCount(rest, 'more file', 'more files')}</p>}
    </section>
  );
}
