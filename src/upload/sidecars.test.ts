import { describe, expect, it } from 'vitest';
import { MAX_SIDECAR_BYTES, pairSidecars } from './sidecars';

const packet = (title: string) =>
  `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">${title}</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>`;
const file = (name: string, text = 'x') => new File([text], name);
const names = (files: File[]) => files.map((f) => f.name);

describe('pairSidecars', () => {
  it('pairs IMG_1.CR3.xmp with its RAW and IMG_2.xmp with every IMG_2.*, without case, and drops them from the batch', async () => {
    const paired = await pairSidecars([
      file('IMG_1.CR3'),
      file('img_1.cr3.XMP', packet('one')),
      file('IMG_2.JPG'),
      file('IMG_2.xmp', packet('two')),
      file('IMG_2.NEF'),
      file('notes.txt'),
    ]);
    expect(names(paired.files)).toEqual(['IMG_1.CR3', 'IMG_2.JPG', 'IMG_2.NEF', 'notes.txt']);
    expect([...paired.sidecars.entries()].map(([i, t]) => [i, /<rdf:li[^>]*>([^<]*)/.exec(t)![1]])).toEqual([
      [0, 'one'],
      [1, 'two'],
      [2, 'two'],
    ]);
  });

  it('prefers the sidecar named after the whole file to one named after its stem', async () => {
    for (const order of [0, 1]) {
      const sidecars = [file('IMG_3.xmp', packet('stem')), file('IMG_3.ARW.xmp', packet('exact'))];
      if (order) sidecars.reverse();
      const paired = await pairSidecars([file('IMG_3.ARW'), ...sidecars]);
      expect(names(paired.files)).toEqual(['IMG_3.ARW']);
      expect(paired.sidecars.get(0)).toContain('exact');
    }
  });

  it('keeps as files: a sidecar with no photo, one holding no XMP, an empty one and one too large', async () => {
    const big = new File([packet('big'), ' '.repeat(MAX_SIDECAR_BYTES)], 'IMG_4.xmp');
    const paired = await pairSidecars([file('IMG_4.JPG'), big, file('IMG_4.jpg.xmp', 'not xmp'), file('IMG_9.xmp', packet('alone')), new File([], 'IMG_4.JPG.XMP')]);
    expect(names(paired.files)).toEqual(['IMG_4.JPG', 'IMG_4.xmp', 'IMG_4.jpg.xmp', 'IMG_9.xmp', 'IMG_4.JPG.XMP']);
    expect(paired.sidecars.size).toBe(0);
  });

  it('keeps ids beside their files', async () => {
    const paired = await pairSidecars([file('a.xmp', packet('a')), file('a.jpg'), file('b.jpg')], ['i1', 'i2', 'i3']);
    expect(paired.ids).toEqual(['i2', 'i3']);
    expect(paired.sidecars.get(0)).toContain('>a<');
  });
});
