import { describe, expect, it } from 'vitest';
import { parseXmp } from './xmp-metadata';

const packet = (inner: string, attrs = '') => `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
 xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" ${attrs}>${inner}</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`;

describe('parseXmp', () => {
  it('reads title, description, rating, label and keywords as Lightroom writes them', () => {
    const xml = packet(
      `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Harbour at dusk &amp; boats</rdf:li></rdf:Alt></dc:title>
       <dc:description><rdf:Alt><rdf:li xml:lang="x-default">From the pier</rdf:li></rdf:Alt></dc:description>
       <dc:subject><rdf:Bag><rdf:li>harbour</rdf:li><rdf:li>007</rdf:li><rdf:li>harbour</rdf:li></rdf:Bag></dc:subject>`,
      'xmp:Rating="4" xmp:Label="Green"',
    );
    expect(parseXmp(xml)).toEqual({
      title: 'Harbour at dusk & boats',
      description: 'From the pier',
      rating: 4,
      label: 'Green',
      keywords: ['harbour', '007'],
    });
  });

  it('reads the creators in their order and the rights, as Lightroom and darktable write them', () => {
    const xml = packet(
      `<dc:creator><rdf:Seq><rdf:li>Ana Lima</rdf:li><rdf:li>Rui Sá</rdf:li></rdf:Seq></dc:creator>
       <dc:rights><rdf:Alt><rdf:li xml:lang="x-default">CC BY 4.0</rdf:li></rdf:Alt></dc:rights>`,
    );
    expect(parseXmp(xml)).toEqual({ creator: 'Ana Lima, Rui Sá', rights: 'CC BY 4.0' });
  });

  it("keeps Lightroom's keyword hierarchy, levels trimmed, each leaf a keyword too", () => {
    const lr = 'xmlns:lr="http://ns.adobe.com/lightroom/1.0/"';
    const xml = packet(
      `<dc:subject><rdf:Bag><rdf:li>Porto</rdf:li><rdf:li>Portugal</rdf:li></rdf:Bag></dc:subject>
       <lr:hierarchicalSubject><rdf:Bag><rdf:li>Places|Portugal|Porto</rdf:li><rdf:li>Places | Portugal</rdf:li>
       <rdf:li>People|Family||Ana</rdf:li><rdf:li>Places|Portugal|Porto</rdf:li></rdf:Bag></lr:hierarchicalSubject>`,
      lr,
    );
    expect(parseXmp(xml)).toEqual({
      keywords: ['Porto', 'Portugal', 'Ana'],
      keywordPaths: ['Places|Portugal|Porto', 'Places|Portugal', 'People|Family|Ana'],
    });
  });

  it("keeps digiKam's keyword hierarchy the Lightroom way, and Lightroom's where a file has both", () => {
    const dk = 'xmlns:digiKam="http://www.digikam.org/ns/1.0/" xmlns:lr="http://ns.adobe.com/lightroom/1.0/"';
    const digikam = packet(`<digiKam:TagsList><rdf:Seq><rdf:li>Places/Portugal/Porto</rdf:li><rdf:li>People / Ana</rdf:li></rdf:Seq></digiKam:TagsList>`, dk);
    expect(parseXmp(digikam)).toEqual({ keywords: ['Porto', 'Ana'], keywordPaths: ['Places|Portugal|Porto', 'People|Ana'] });
    const both = packet(
      `<digiKam:TagsList><rdf:Seq><rdf:li>Old/Tree</rdf:li></rdf:Seq></digiKam:TagsList>
       <lr:hierarchicalSubject><rdf:Bag><rdf:li>Places|Porto</rdf:li></rdf:Bag></lr:hierarchicalSubject>`,
      dk,
    );
    expect(parseXmp(both)).toEqual({ keywords: ['Porto'], keywordPaths: ['Places|Porto'] });
  });

  it('reads properties written as elements, picks the x-default language and a single keyword', () => {
    const xml = packet(
      `<xmp:Rating>5</xmp:Rating><xmp:Label>Red</xmp:Label>
       <dc:title><rdf:Alt><rdf:li xml:lang="fr-FR">Le port</rdf:li><rdf:li xml:lang="x-default">The harbour</rdf:li></rdf:Alt></dc:title>
       <dc:subject><rdf:Bag><rdf:li>solo</rdf:li></rdf:Bag></dc:subject>
       <photoshop:DateCreated>2020-05-06T07:08:09+02:00</photoshop:DateCreated>`,
    );
    expect(parseXmp(xml)).toEqual({ rating: 5, label: 'Red', title: 'The harbour', keywords: ['solo'], takenAt: '2020-05-06T05:08:09.000Z', takenOffset: 120 });
  });

  it('keeps a rejected photo (-1) and ignores ratings outside the scale', () => {
    expect(parseXmp(packet('', 'xmp:Rating="-1"')).rating).toBe(-1);
    expect(parseXmp(packet('', 'xmp:Rating="99"')).rating).toBeUndefined();
    expect(parseXmp(packet('', 'xmp:Rating="lots"')).rating).toBeUndefined();
  });

  it('never expands entities declared in a DOCTYPE', () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY boom "BOOMBOOMBOOM">]>
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Label="&boom;"/></rdf:RDF></x:xmpmeta>`;
    expect(JSON.stringify(parseXmp(xml))).not.toContain('BOOM');
  });

  describe('hostile packets are refused quickly, without a throw and without touching any global', () => {
    const within = (ms: number, fn: () => unknown) => {
      const t0 = performance.now();
      const result = fn();
      expect(performance.now() - t0).toBeLessThan(ms);
      return result;
    };
    const packet = (inner: string) =>
      `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">${inner}</rdf:RDF></x:xmpmeta>`;

    it('an external entity is never fetched nor expanded', () => {
      const xml = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY ext SYSTEM "file:///etc/passwd">]>${packet(
        '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">&ext;</rdf:li></rdf:Alt></dc:title></rdf:Description>',
      )}`;
      const out = within(100, () => parseXmp(xml)) as { title?: string };
      expect(out.title ?? '').not.toMatch(/root:/);
    });

    it('__proto__ and constructor keys pollute nothing', () => {
      const xml = packet(
        '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" __proto__="x"><__proto__><polluted>yes</polluted></__proto__><constructor><prototype><polluted>yes</polluted></prototype></constructor><dc:subject><rdf:Bag><rdf:li>sea</rdf:li></rdf:Bag></dc:subject></rdf:Description>',
      );
      // The parser refuses such names, and so the whole packet; reading on past them would be as safe.
      expect([{}, { keywords: ['sea'] }]).toContainEqual(within(100, () => parseXmp(xml)));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect((Object.prototype as unknown as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('nesting 100,000 deep', () => {
      const xml = packet(`${'<a>'.repeat(100_000)}x${'</a>'.repeat(100_000)}`);
      expect(within(100, () => parseXmp(xml))).toEqual({});
    });

    it('a packet of 100 MB', () => {
      const xml = packet(`<rdf:Description><dc:title>${'x'.repeat(100 * 1024 * 1024)}</dc:title></rdf:Description>`);
      expect(within(100, () => parseXmp(xml))).toEqual({});
    });
  });

  it('returns nothing for broken or empty packets instead of throwing', () => {
    expect(parseXmp('')).toEqual({});
    expect(parseXmp('<x:xmpmeta><rdf:RDF><rdf:Description')).toEqual({});
    expect(parseXmp('not xml at all')).toEqual({});
  });

  it('strips control characters from text fields', () => {
    expect(parseXmp(packet('', 'xmp:Label="Bl&#x1;ue\u0007"')).label).toBe('Blue');
  });
});
