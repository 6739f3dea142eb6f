export interface Size {
  width: number;
  height: number;
}

/** The size that fits `width` x `height` within a square of `longEdge`, keeping the aspect ratio and never upscaling. */
export function fitWithin(width: number, height: number, longEdge: number): Size {
  const scale = Math.min(1, longEdge / Math.max(width, height));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}
