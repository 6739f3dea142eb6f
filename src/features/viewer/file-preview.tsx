import { useEffect, useState } from 'react';
import type { Item } from '../../domain/entities';
import { useAlbumBackend } from '../../backend/backend-context';
import { errorText } from '../../lib/error-messages';
import { formatBytes, safeFilename } from '../../lib/format';
import { Icon } from '../../ui/icon';
import { toAppError } from '../../lib/app-error';
import { fileIconFor } from '../items/file-icon';
import { originalBytes } from '../downloads/member-files';

const TEXT_PREVIEW_BYTES = 256 * 1024;

/**
 * Plain text we can show as text (XML such as GPX and KML too: it is only ever shown as the characters it is,
 * in a <pre>). SVG and HTML are never rendered, not even as text-looking markup.
 */
function isPlainText(mime: string): boolean {
  return mime === 'text/plain' || mime === 'text/csv' || mime === 'application/json' || mime === 'text/markdown' || mime === 'application/xml';
}

/** The first `max` bytes of the original, inflated when it is stored compressed (and only as far as needed). */
async function readHead(item: Item, stored: Blob, max: number): Promise<Blob> {
  const source = originalBytes(item, stored);
  if (source instanceof Blob) return source.slice(0, max);
  const reader = source.getReader();
  const pieces: Uint8Array<ArrayBuffer>[] = [];
  let got = 0;
  try {
    while (got < max) {
      const { value, done } = await reader.read();
      if (done) break;
      pieces.push(value as Uint8Array<ArrayBuffer>);
      got += value.byteLength;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return new Blob(pieces).slice(0, max);
}

/** A file that is not a photo or video: its icon, name, size, a text preview when safe, audio player for audio. */
export function FilePreview({ item, url }: { item: Item; url: string | undefined }) {
  const { files } = useAlbumBackend();
  const [text, setText] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    if (!isPlainText(item.mime)) return;
    const ctrl = new AbortController();
    files
      .read(item.originalKey, { signal: ctrl.signal })
      .then((blob) => readHead(item, blob, TEXT_PREVIEW_BYTES))
      .then((head) => head.text())
      .then((t) => !ctrl.signal.aborted && setText(t))
      .catch((e: unknown) => {
        // A stored copy that does not inflate to the file is said so; anything else just shows no preview.
        const error = toAppError(e, 'backend/unreachable');
        if (!ctrl.signal.aborted && error.code === 'upload/integrity') setFailure(errorText(error.code).title);
      });
    return () => ctrl.abort();
  }, [files, item]);

  return (
    <div className="file-preview">
      <Icon name={fileIconFor(item)} size={64} />
      <strong>{safeFilename(item.filename)}</strong>
      <span className="muted">
        {item.mime} · {formatBytes(item.bytes)}
      </span>
      {item.metadata.notice && <p className="notice">{errorText(item.metadata.notice).title}</p>}
      {failure && <p className="notice" role="alert">{failure}</p>}
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
