/** Fixtures of tests/fixtures/ as the browser tests of the media pipeline read them, and a look at their pixels. */

export async function fixture(name: string): Promise<Blob> {
  const res = await fetch(`/tests/fixtures/${name}`);
  if (!res.ok) throw new Error(`fixture ${name}: ${res.status}`);
  // A Blob, not a File: the pipeline never sees a name.
  return new Blob([await res.arrayBuffer()]);
}

/** An image's size and its colour at a fraction of its width and height. */
export async function pixels(blob: Blob) {
  const bitmap = await createImageBitmap(blob);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(bitmap, 0, 0);
  const { width, height } = bitmap;
  bitmap.close();
  const data = ctx.getImageData(0, 0, width, height).data;
  const at = (fx: number, fy: number) => {
    const i = (Math.floor(fy * height) * width + Math.floor(fx * width)) * 4;
    return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
  };
  return { width, height, at };
}
