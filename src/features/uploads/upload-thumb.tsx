import { useEffect, useRef, useState } from 'react';
import type { ItemKind } from '../../domain/entities';
import { log } from '../../lib/log';
import { Icon } from '../../ui/icon';
import { thumbhashDataUrl } from '../../ui/thumbhash-image';

/** The part of the queue a row's thumbnail reads. */
export interface ThumbSource {
  thumbnail(id: string): Promise<Blob | undefined>;
}

/**
 * An upload's thumbnail in the queue, from the moment the media pipeline has made it: its thumbhash at once, then
 * the thumbnail itself, read from the queue when the row comes near the screen (a list of a thousand uploads reads
 * only the ones looked at). Before then, and for a file with no preview, the icon of its kind once it is known.
 */
export function UploadThumb({ id, kind, thumbhash, source }: { id: string; kind: ItemKind | null; thumbhash: string | null | undefined; source: ThumbSource }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [url, setUrl] = useState<string | null>(null);

  useEffect(() => {
    const el = ref.current;
    if (!thumbhash || !el) return;
    let gone = false;
    let made: string | null = null;
    const seen = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        seen.disconnect();
        source.thumbnail(id).then(
          (blob) => {
            if (gone || !blob) return;
            made = URL.createObjectURL(blob);
            setUrl(made);
          },
          (e: unknown) => log.warn('Upload thumbnail could not be read', e),
        );
      },
      { rootMargin: '400px 0px' },
    );
    seen.observe(el);
    return () => {
      gone = true;
      seen.disconnect();
      if (made) URL.revokeObjectURL(made);
      setUrl(null);
    };
  }, [source, id, thumbhash]);

  const placeholder = thumbhash ? thumbhashDataUrl(thumbhash) : null;
  return (
    <span ref={ref} className="upload-row__thumb" aria-hidden="true" style={placeholder ? { backgroundImage: `url("${placeholder}")` } : undefined}>
      {url ? <img src={url} alt="" data-testid="upload-thumb" /> : !placeholder && kind && <Icon name={kind === 'video' ? 'video' : kind === 'image' ? 'image' : 'file'} />}
    </span>
  );
}
