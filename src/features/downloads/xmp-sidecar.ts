/**
 * [Note: XMP sidecars out]
 * A download can carry, beside each photo, an XMP sidecar with what Shoebox knows of it that desktop tools read:
 * title, description, rating, colour label, keywords (flat, and Lightroom's hierarchy), creator, rights and the
 * date taken. Named `IMG_1.JPG.xmp` (darktable, Immich, digiKam) or `IMG_1.xmp` (Lightroom, Capture One), as the
 * person chooses. Built with fast-xml-parser's builder, which escapes every value: a title is text, never markup.
 * Only the item's own fields go in, and the item never holds a place, so a sidecar carries no location whatever
 * the album's choice. Loaded only for a download that asked for sidecars.
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { ItemMetadata } from '../../domain/entities';

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  format: true,
  indentBy: ' ',
  suppressEmptyNode: true,
  processEntities: true,
});

const alt = (text: string) => ({ 'rdf:Alt': { 'rdf:li': { '@xml:lang': 'x-default', '#text': text } } });
const list = (kind: 'rdf:Bag' | 'rdf:Seq', items: readonly string[]) => ({ [kind]: { 'rdf:li': items.map((t) => ({ '#text': t })) } });

/**
 * The date taken as XMP writes it: the clock where it was taken with its offset (`2023-07-14T18:30:05+02:00`) when
 * known, else the instant in UTC.
 */
function xmpDate(takenAt: string, offset: number | undefined): string {
  const t = Date.parse(takenAt);
  if (offset === undefined) return new Date(t).toISOString().replace('.000Z', 'Z');
  const a = Math.abs(offset);
  const zone = `${offset < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
  return new Date(t + offset * 60_000).toISOString().replace(/(\.000)?Z$/, zone);
}

/** The sidecar of an item, or null when it has nothing a sidecar would say. */
export function buildXmpSidecar(item: { metadata: ItemMetadata; takenAt: string | null }): Uint8Array<ArrayBuffer> | null {
  const m = item.metadata;
  const description: Record<string, unknown> = {
    '@rdf:about': '',
    '@xmlns:dc': 'http://purl.org/dc/elements/1.1/',
    '@xmlns:xmp': 'http://ns.adobe.com/xap/1.0/',
    '@xmlns:photoshop': 'http://ns.adobe.com/photoshop/1.0/',
    '@xmlns:lr': 'http://ns.adobe.com/lightroom/1.0/',
  };
  let said = false;
  const attr = (name: string, value: string | number | undefined) => {
    if (value === undefined || value === '') return;
    description[`@${name}`] = String(value);
    said = true;
  };
  const child = (name: string, value: unknown) => {
    description[name] = value;
    said = true;
  };
  attr('xmp:Rating', m.rating);
  attr('xmp:Label', m.label);
  if (item.takenAt && !Number.isNaN(Date.parse(item.takenAt))) attr('photoshop:DateCreated', xmpDate(item.takenAt, m.takenOffset));
  if (m.title) child('dc:title', alt(m.title));
  if (m.description) child('dc:description', alt(m.description));
  if (m.keywords?.length) child('dc:subject', list('rdf:Bag', m.keywords));
  if (m.keywordPaths?.length) child('lr:hierarchicalSubject', list('rdf:Bag', m.keywordPaths));
  // The item keeps the creators' names joined as they were read ("Ana Lima, Rui Sá"): one entry, as it is (a name
  // may hold a comma itself).
  if (m.creator) child('dc:creator', list('rdf:Seq', [m.creator]));
  if (m.rights) child('dc:rights', alt(m.rights));
  if (!said) return null;
  const xml = builder.build({
    'x:xmpmeta': {
      '@xmlns:x': 'adobe:ns:meta/',
      '@x:xmptk': 'Shoebox',
      'rdf:RDF': { '@xmlns:rdf': 'http://www.w3.org/1999/02/22-rdf-syntax-ns#', 'rdf:Description': description },
    },
  }) as string;
  return new TextEncoder().encode(`<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>\n${xml}<?xpacket end="w"?>\n`);
}
