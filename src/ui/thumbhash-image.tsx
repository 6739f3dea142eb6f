import { useMemo } from 'react';
import { thumbHashToDataURL } from 'thumbhash';

function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const cache = new Map<string, string>();

/** The blurred placeholder shown while a thumbnail loads (decoded once per hash). */
export function thumbhashDataUrl(hash: string): string | null {
  let url = cache.get(hash);
  if (url === undefined) {
    try {
      url = thumbHashToDataURL(base64ToBytes(hash));
    } catch {
      return null;
    }
    if (cache.size > 2000) cache.clear();
    cache.set(hash, url);
  }
  return url;
}

export function ThumbhashImage({ hash, className }: { hash: string; className: string }) {
  const url = useMemo(() => thumbhashDataUrl(hash), [hash]);
  if (!url) return null;
  return <img className={className} src={url} alt="" aria-hidden="true" />;
}
