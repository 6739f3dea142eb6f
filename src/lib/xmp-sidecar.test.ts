/** The sidecars a download carries, read back by ExifTool as desktop tools would read them. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureExiftool } from '../../scripts/ensure-exiftool.mjs';
import { parseXmp } from '../media/xmp-metadata';
import { boundItemMetadata } from './item-metadata';
import { buildXmpSidecar, editedLater, mergeXmpSidecar } from './xmp-sidecar';

let dir: string;
beforeAll(() => {
  ensureExiftool();
  dir = mkdtempSync(join(tmpdir(), 'sidecar-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readBack = (bytes: Uint8Array, name: string) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return (JSON.parse(execFileSync('exiftool', ['-j', '-struct', '-XMP:all', path], { encoding: 'utf8' })) as Record<string, unknown>[])[0]!;
};

const metadata = {
  title: 'Tram 28 <at> dusk & "rain"',
  description: 'Alfama,\nlooking down',
  rating: 4,
  label: 'Red',
  keywords: ['tram', 'Lisbon', '007'],
  keywordPaths: ['Places|Portugal|Lisbon'],
  creator: 'Ana Lima, Rui Sá',
  rights: 'CC BY 4.0',
  cameraMake: 'Canon',
  location: 'removed' as const,
};

describe('buildXmpSidecar', () => {
  it('is read back by ExifTool field by field: title, description, rating, label, keywords, hierarchy, creator, rights, date', () => {
    const bytes = buildXmpSidecar({ metadata, takenAt: '2024-05-01T10:30:00.000Z' })!;
    const tags = readBack(bytes, 'IMG_1.JPG.xmp');
    expect(tags).toMatchObject({
      Title: metadata.title,
      Description: metadata.description,
      Rating: 4,
      Label: 'Red',
      Subject: ['tram', 'Lisbon', '007'],
      HierarchicalSubject: ['Places|Portugal|Lisbon'],
      Creator: ['Ana Lima, Rui Sá'],
      Rights: 'CC BY 4.0',
      DateCreated: '2024:05:01 10:30:00Z',
    });
    // Nothing of a place, ever.
    expect(Object.keys(tags).filter((k) => /GPS|Location|City|Country|State|Sublocation/i.test(k))).toEqual([]);
    // And Shoebox reads its own sidecar back the same.
    expect(parseXmp(new TextDecoder().decode(bytes))).toEqual({
      title: metadata.title,
      description: metadata.description,
      rating: 4,
      label: 'Red',
      keywords: metadata.keywords,
      keywordPaths: metadata.keywordPaths,
      creator: metadata.creator,
      rights: metadata.rights,
      takenAt: '2024-05-01T10:30:00.000Z',
    });
  });

  it('writes the date taken as the clock read it where it was taken, with its offset, when that is known', () => {
    const bytes = buildXmpSidecar({ metadata: { rating: 2, takenOffset: 345 }, takenAt: '2023-12-31T16:15:00.000Z' })!;
    expect(readBack(bytes, 'IMG_2.JPG.xmp').DateCreated).toBe('2023:12:31 22:00:00+05:45');
    expect(parseXmp(new TextDecoder().decode(bytes))).toMatchObject({ takenAt: '2023-12-31T16:15:00.000Z', takenOffset: 345 });
    const west = buildXmpSidecar({ metadata: { takenOffset: -300 }, takenAt: '2024-01-01T03:00:00.500Z' })!;
    expect(readBack(west, 'IMG_3.JPG.xmp').DateCreated).toBe('2023:12:31 22:00:00.500-05:00');
  });

  it('is not made for an item with nothing a sidecar would say', () => {
    expect(buildXmpSidecar({ metadata: { cameraMake: 'Canon', iso: 100, location: 'removed' }, takenAt: null })).toBeNull();
  });
});

/** A darktable sidecar as it writes one: its own fields as attributes, a develop history, Adobe's old `xap` prefix. */
const darktable = `<?xml version="1.0" encoding="UTF-8"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:xap="http://ns.adobe.com/xap/1.0/"
    xmlns:darktable="http://darktable.sf.net/"
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
    xap:Rating="2"
    xap:Label="Blue"
    darktable:xmp_version="5"
    darktable:raw_params="0"
    darktable:auto_presets_applied="1">
   <darktable:history>
    <rdf:Seq>
     <rdf:li darktable:operation="exposure" darktable:enabled="1" darktable:params="0000000000000000" darktable:multi_name="say &quot;hi&quot;"/>
    </rdf:Seq>
   </darktable:history>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Old title</rdf:li></rdf:Alt></dc:title>
   <dc:subject><rdf:Bag><rdf:li>old</rdf:li></rdf:Bag></dc:subject>
   <lr:hierarchicalSubject><rdf:Bag><rdf:li>Old|Path</rdf:li></rdf:Bag></lr:hierarchicalSubject>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:DateCreated="2020-01-01T00:00:00"/>
 </rdf:RDF>
</x:xmpmeta>`;

const tagsOf = (bytes: Uint8Array) => readBack(bytes, `IMG_${Math.random().toString(36).slice(2)}.xmp`);

describe('mergeXmpSidecar', () => {
  it('keeps every field of an uploaded sidecar it does not own and gives the item\'s fields in place of its own', () => {
    const bytes = mergeXmpSidecar(darktable, {
      metadata: { title: 'Miradouro & <sunset>', rating: 5, keywords: ['tram', 'Lisbon'], keywordPaths: ['Places|Portugal|Lisbon'] },
      takenAt: '2024-05-01T10:30:00.000Z',
    });
    const tags = tagsOf(bytes);
    // darktable's own fields and its history, as they were.
    expect(tags).toMatchObject({
      Xmp_version: 5,
      Raw_params: 0,
      Auto_presets_applied: 1,
      History: [{ Operation: 'exposure', Enabled: 1, Params: '0000000000000000', Multi_name: 'say "hi"' }],
    });
    // The item's fields, once each: the old title, rating, label, keywords and date are gone.
    expect(tags).toMatchObject({
      Title: 'Miradouro & <sunset>',
      Rating: 5,
      Subject: ['tram', 'Lisbon'],
      HierarchicalSubject: ['Places|Portugal|Lisbon'],
      DateCreated: '2024:05:01 10:30:00Z',
    });
    expect(tags).not.toHaveProperty('Label');
    expect(JSON.stringify(tags)).not.toMatch(/Old title|Old\|Path|"old"|2020/);
    expect(parseXmp(new TextDecoder().decode(bytes))).toMatchObject({ title: 'Miradouro & <sunset>', rating: 5, keywords: ['tram', 'Lisbon'] });
  });

  it('clears what the item cleared, and keeps the rest when the item says nothing', () => {
    const bytes = mergeXmpSidecar(darktable, { metadata: {}, takenAt: null });
    const tags = tagsOf(bytes);
    expect(tags).toMatchObject({ Xmp_version: 5, History: [{ Operation: 'exposure' }] });
    for (const gone of ['Title', 'Rating', 'Label', 'Subject', 'HierarchicalSubject', 'DateCreated']) expect(tags).not.toHaveProperty(gone);
  });

  it('is stored again as it was read: a second merge of the same item changes nothing', () => {
    const item = { metadata: { title: 'Tram', rating: 3, label: 'Red' }, takenAt: '2024-05-01T10:30:00.000Z' };
    const once = new TextDecoder().decode(mergeXmpSidecar(darktable, item));
    expect(new TextDecoder().decode(mergeXmpSidecar(once, item))).toBe(once);
  });

  it('reads owned fields under any prefix bound to their namespace, and leaves a foreign namespace that reuses a prefix alone', () => {
    const base = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><RDF:RDF xmlns:RDF="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <RDF:Description RDF:about="" xmlns:d="http://purl.org/dc/elements/1.1/" xmlns:xmp="urn:example:not-adobe" xmp:Rating="keep me">
        <d:title><RDF:Alt><RDF:li xml:lang="x-default">Old</RDF:li></RDF:Alt></d:title>
      </RDF:Description></RDF:RDF></x:xmpmeta>`;
    const xml = new TextDecoder().decode(mergeXmpSidecar(base, { metadata: { title: 'New', rating: 1 }, takenAt: null }));
    expect(xml).not.toContain('>Old<');
    expect(xml).toContain('xmp:Rating="keep me"');
    expect(parseXmp(xml)).toMatchObject({ title: 'New' });
    expect(tagsOf(new TextEncoder().encode(xml))).toMatchObject({ Title: 'New', Rating: 1 });
  });

  it('makes the sidecar from the item alone when the base is no XMP it can keep', () => {
    const item = { metadata: { title: 'Tram' }, takenAt: null };
    const alone = new TextDecoder().decode(mergeXmpSidecar(null, item));
    for (const base of [
      '',
      'not xml at all',
      '<x:xmpmeta><rdf:RDF><rdf:Description></x:xmpmeta>',
      '<!DOCTYPE x [<!ENTITY e "boom">]><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:a="urn:a" a:b="&e;"/></rdf:RDF></x:xmpmeta>',
      `${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`,
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><notrdf/></x:xmpmeta>',
    ]) {
      expect(new TextDecoder().decode(mergeXmpSidecar(base, item))).toBe(alone);
    }
    expect(tagsOf(new TextEncoder().encode(alone))).toMatchObject({ Title: 'Tram' });
    // An item with nothing to say still gets a sidecar that says nothing, so a cleared item clears its sidecar.
    expect(Object.keys(tagsOf(mergeXmpSidecar(null, { metadata: {}, takenAt: null }))).filter((k) => k !== 'SourceFile' && k !== 'XMPToolkit')).toEqual([]);
  });

  it('dates the sidecar with the item\'s last edit, over a desktop tool\'s date, and keeps that date while the item was never edited', () => {
    const base = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:MetadataDate="2024-03-02T10:00:00+01:00" xmp:CreatorTool="Lightroom"/></rdf:RDF></x:xmpmeta>`;
    const uploaded = mergeXmpSidecar(base, { metadata: { title: 'Tram' }, takenAt: null });
    expect(tagsOf(uploaded)).toMatchObject({ MetadataDate: '2024:03:02 10:00:00+01:00', CreatorTool: 'Lightroom' });
    const edited = mergeXmpSidecar(new TextDecoder().decode(uploaded), { metadata: { title: 'Tram' }, takenAt: null, editedAt: '2026-11-28T09:15:30.250Z' });
    expect(tagsOf(edited)).toMatchObject({ MetadataDate: '2026:11:28 09:15:30.250Z', Title: 'Tram', CreatorTool: 'Lightroom' });
    // Cleared of everything, the sidecar still says when.
    const cleared = mergeXmpSidecar(new TextDecoder().decode(edited), { metadata: {}, takenAt: null, editedAt: '2026-11-28T09:16:00.000Z' });
    expect(tagsOf(cleared)).toMatchObject({ MetadataDate: '2026:11:28 09:16:00.000Z' });
    expect(tagsOf(cleared)).not.toHaveProperty('Title');
  });
});

describe('mergeXmpSidecar: keywords the item cannot hold', () => {
  const words = Array.from({ length: 250 }, (_, i) => `k${i + 1}`);
  const long = `${'x'.repeat(140)}`;
  const paths = Array.from({ length: 210 }, (_, i) => `Trips|${2000 + i}`);
  const li = (list: string[]) => list.map((w) => `<rdf:li>${w}</rdf:li>`).join('');
  // Lightroom writes its keywords and their hierarchy in one description.
  const lightroom = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
    <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:lr="http://ns.adobe.com/lightroom/1.0/" xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/" crs:Exposure2012="+0.50">
      <dc:subject><rdf:Bag>${li([long, ...words])}</rdf:Bag></dc:subject>
      <lr:hierarchicalSubject><rdf:Bag>${li(paths)}</rdf:Bag></lr:hierarchicalSubject>
    </rdf:Description></rdf:RDF></x:xmpmeta>`;
  // The item as the upload makes it from the sidecar: what the database holds, the rest cut.
  const fields = parseXmp(lightroom);
  const held = boundItemMetadata({ keywords: fields.keywords, keywordPaths: fields.keywordPaths });
  const read = (bytes: Uint8Array) => tagsOf(bytes) as { Subject: string[]; HierarchicalSubject: string[]; Rating?: number; Exposure2012?: string };
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

  it('stores every keyword and path of an uploaded sidecar, the item\'s first, the ones it could not hold after', () => {
    expect(held.keywords).toHaveLength(200);
    expect(held.keywords![0]).toBe('x'.repeat(100));
    const stored = read(mergeXmpSidecar(lightroom, { metadata: held, takenAt: null }, { uploaded: true }));
    // The long keyword is held cut short, and is not written twice.
    expect(stored.Subject).toEqual(['x'.repeat(100), ...words]);
    expect(stored.HierarchicalSubject).toEqual(paths);
    expect(stored.Exposure2012).toBe('+0.50');
  });

  it('keeps them through later edits, and loses only what an edit takes away', () => {
    const uploaded = text(mergeXmpSidecar(lightroom, { metadata: held, takenAt: null }, { uploaded: true }));
    // A rating: every keyword stays where it was.
    const rated = text(mergeXmpSidecar(uploaded, { metadata: { ...held, rating: 4 }, takenAt: null }));
    expect(read(new TextEncoder().encode(rated))).toMatchObject({ Rating: 4, Subject: ['x'.repeat(100), ...words], HierarchicalSubject: paths });
    // A keyword removed, then a rating again: only that keyword goes, none of the ones the item never held.
    const fewer = { ...held, keywords: held.keywords!.filter((k) => k !== 'k5') };
    const removed = text(mergeXmpSidecar(rated, { metadata: fewer, takenAt: null }));
    const again = read(mergeXmpSidecar(removed, { metadata: { ...fewer, rating: 2 }, takenAt: null }));
    expect(again.Subject).toEqual(['x'.repeat(100), ...words.filter((k) => k !== 'k5')]);
    // One of them taken into the item is written once, among the item's.
    const taken = { ...fewer, keywords: [...fewer.keywords!, 'k230'] };
    const subject = read(mergeXmpSidecar(removed, { metadata: taken, takenAt: null })).Subject;
    expect(subject.filter((k) => k === 'k230')).toHaveLength(1);
    expect(subject).toHaveLength(250);
    expect(subject.indexOf('k230')).toBeLessThan(subject.indexOf('k200'));
  });

  it('does not bring back a desktop tool\'s keywords the item never had, from a sidecar that carries no count', () => {
    const stored = read(mergeXmpSidecar(lightroom, { metadata: { keywords: ['tram'] }, takenAt: null }));
    expect(stored.Subject).toEqual(['tram']);
    expect(stored).not.toHaveProperty('HierarchicalSubject');
  });
});

describe('editedLater', () => {
  const dated = (when: string) => new TextDecoder().decode(mergeXmpSidecar(null, { metadata: { title: 'x' }, takenAt: null, editedAt: when }));
  it('tells a stored sidecar holding a later edit, as an attribute or an element, under any prefix', () => {
    expect(editedLater(dated('2026-11-28T09:16:00.000Z'), '2026-11-28T09:15:59.999Z')).toBe(true);
    expect(editedLater(dated('2026-11-28T09:16:00.000Z'), '2026-11-28T09:16:00.000Z')).toBe(false);
    expect(editedLater(dated('2026-11-28T09:16:00.000Z'), '2026-11-28T10:00:00.000Z')).toBe(false);
    expect(editedLater('<r><xap:MetadataDate>2030-01-01T00:00:00Z</xap:MetadataDate></r>', '2026-11-28T10:00:00.000Z')).toBe(true);
  });
  it('is never later for a sidecar without a date, an unreadable one, or an item never edited', () => {
    expect(editedLater(new TextDecoder().decode(mergeXmpSidecar(null, { metadata: { title: 'x' }, takenAt: null })), '2026-11-28T10:00:00.000Z')).toBe(false);
    expect(editedLater('<r xmp:MetadataDate="soon"/>', '2026-11-28T10:00:00.000Z')).toBe(false);
    expect(editedLater(dated('2030-01-01T00:00:00.000Z'), null)).toBe(false);
    expect(editedLater(dated('2030-01-01T00:00:00.000Z'), undefined)).toBe(false);
  });
});
