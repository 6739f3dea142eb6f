import { describe, expect, it } from 'vitest';
import { isDecoderAsset } from './decoder-assets';

describe('isDecoderAsset', () => {
  it('knows the late decoders by their built names, and nothing else', () => {
    for (const path of ['/assets/decoder-libheif-nX98dN_7.wasm', '/assets/decoder-tiff-decode-BxjJCXQQ.js', '/assets/decoder-lerc-B-uM9z7a.js']) {
      expect(isDecoderAsset(path), path).toBe(true);
    }
    for (const path of ['/assets/index-CQFCxm48.js', '/assets/decoderish.js', '/decoder-x.js', '/assets/media-worker-BXbaljuJ.js', '/']) {
      expect(isDecoderAsset(path), path).toBe(false);
    }
  });
});
