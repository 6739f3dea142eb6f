import { useEffect, useState } from 'react';
import type { Item } from '../../domain/entities';
import { useAlbumBackend } from '../../backend/backend-context';
import { errorText } from '../../lib/error-messages';
import { formatBytes, safeFilename } from '../../lib/format';
import { Icon } from '../../ui/icon';
import { fileIconFor } from '../items/file-icon';

const TEXT_PREVIEW_BYTES = 256 * 1024;

/** Plain text we can show as text. SVG and HTML are never rendered, not even as text-looking markup. */
function isPlainText(mime: string): boolean {
  return mime === 'text/plain' || mime === 'text/csv' || mime === 'application/json' || mime === 'text/markdown';
}

/** A file that is not a photo or video: its icon, name, size, a text preview when safe, audio player for audio. */
export function FilePreview({ item, url }: { item: Item; url: string | undefined }) {
  const { files } = useAlbumBackend();
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    if (!isPlainText(item.mime)) return;
    const ctrl = new AbortController();
    files
      .read(item.originalKey, { signal: ctrl.signal })
      .then((blob) => blob.slice(0, TEXT_PREVIEW_BYTES).text())
      .then((t) => !ctrl.signal.aborted && setText(t))
      .catch(() => undefined);
    return () => ctrl.abort();
  }, [files, item.mime, item.originalKey]);

  return (
    <div className="file-preview">
      <Icon name={fileIconFor(item)} size={64} />
      <strong>{safeFilename(item.filename)}</strong>
      <span className="muted">
        {item.mime} · {formatBytes(item.bytes)}
      </span>
      {item.metadata.notice && <p className="notice">{errorText(item.metadata.notice).title}</p>}
      {item.mime.startsWith('audio/') && url && <audio controls src={url} />}
      {text !== null && (
        <pre aria-label="Text preview">
          {text}
          {item.bytes > TEXT_PREVIEW_BYTES ? '\n…' : ''}
        </pre>
      )}
    </div>
  );
}
