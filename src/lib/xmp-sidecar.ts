/**
 * [Note: XMP sidecars out]
 * A sidecar says, for desktop tools, what Shoebox knows of a photo: title, description, rating, colour label,
 * keywords (flat, and Lightroom's hierarchy), creator, rights and the date taken. It goes out two ways:
 * - beside each original in the bucket (`albums/{a}/{i}/original.xmp`, [Note: Sidecars beside originals] in
 *   src/backend/sidecar-writer.ts), kept in step with edits;
 * - in downloads, when asked, named `IMG_1.JPG.xmp` (darktable, Immich, digiKam) or `IMG_1.xmp` (Lightroom,
 *   Capture One).
 * Built with fast-xml-parser's builder. A sidecar uploaded with its photo is the base of the stored one: what
 * Shoebox does not know (develop settings, other tools' fields) is kept as it was, and the fields Shoebox owns are
 * taken out of it and written once, from the item, in a description of their own (so a packet that binds a
 * prefix to another namespace cannot change what they mean). The item never holds a place, and the base has had
 * its place taken out before it is stored in an album that removes locations (src/upload/stored-sidecar.ts).
 *
 * [Note: Keywords the item cannot hold]
 * An item holds at most 200 keywords and 200 keyword paths, in 16 KiB of JSON (PRODUCT.md §9); a photographer's
 * sidecar may have more. Those the item could not hold are not lost from the stored sidecar: its keyword lists
 * are the item's, then the ones it could not hold, and our description says how many of those end the list
 * (`shoebox:KeywordsNotHeld`, `shoebox:KeywordPathsNotHeld`). When the sidecar is uploaded, the ones not held
 * are the sidecar's that the item does not have; at every later merge, the ones the stored sidecar counts, less
 * any the item has since taken. So an edit that removes a keyword removes it from the sidecar too, and one that
 * only changes a rating leaves all of them where they were. A sidecar a desktop tool rewrote in the bucket
 * carries no count: the item's lists then stand alone, as for any base.
 */
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import type { ItemMetadata } from '../domain/entities';
import { KEYWORD_MAX_CHARS } from './item-metadata';
import { decodeXmlEntities, escapeXmlText } from './xml-entities';

/** A sidecar's stored type: the bucket's type for what is not a photo, video or sound, served as an attachment. */
export const SIDECAR_TYPE = 'application/octet-stream';

export interface SidecarSource {
  metadata: ItemMetadata;
  takenAt: string | null;
  /** When its details were last edited here: the sidecar's `xmp:MetadataDate`. */
  editedAt?: string | null;
}

const NS = {
  x: 'adobe:ns:meta/',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  dc: 'http://purl.org/dc/elements/1.1/',
  xmp: 'http://ns.adobe.com/xap/1.0/',
  photoshop: 'http://ns.adobe.com/photoshop/1.0/',
  lr: 'http://ns.adobe.com/lightroom/1.0/',
  exif: 'http://ns.adobe.com/exif/1.0/',
  digiKam: 'http://www.digikam.org/ns/1.0/',
  MicrosoftPhoto: 'http://ns.microsoft.com/photo/1.0/',
  shoebox: 'urn:shoebox:xmp:1.0/',
} as const;

/**
 * The properties the item decides, by namespace: what Shoebox writes, and what it reads into the same fields (the
 * other dates, digiKam's and Windows' keyword paths), which would otherwise contradict an edit.
 */
const OWNED: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [NS.dc, new Set(['title', 'description', 'subject', 'creator', 'rights'])],
  [NS.xmp, new Set(['Rating', 'Label', 'CreateDate'])],
  [NS.photoshop, new Set(['DateCreated'])],
  [NS.exif, new Set(['DateTimeOriginal'])],
  [NS.lr, new Set(['hierarchicalSubject'])],
  [NS.digiKam, new Set(['TagsList'])],
  [NS.MicrosoftPhoto, new Set(['LastKeywordXMP'])],
  [NS.shoebox, new Set(['KeywordsNotHeld', 'KeywordPathsNotHeld'])],
]);

/** A sidecar uploaded with a photo is at most 1 MiB (src/upload/sidecars.ts); a larger base is not read. */
const MAX_BASE_CHARS = 1024 * 1024;

/** fast-xml-parser's ordered tree: `{ name: children, ':@': attributes }`, or `{ '#text': text }`. */
type XmlNode = Record<string, unknown>;

const ATTRS = ':@';
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Entities are never expanded; text and attributes stay escaped as they came, and are written back so.
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  commentPropName: '#comment',
});
const builder = new XMLBuilder({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  processEntities: false,
  format: true,
  indentBy: ' ',
  suppressEmptyNode: true,
  commentPropName: '#comment',
});

const text = (t: string): XmlNode => ({ '#text': escapeXmlText(t) });
const el = (name: string, children: XmlNode[], attrs?: Record<string, string>): XmlNode => ({ [name]: children, ...(attrs ? { [ATTRS]: attrs } : {}) });
const alt = (t: string) => [el('rdf:Alt', [el('rdf:li', [text(t)], { '@xml:lang': 'x-default' })])];
const list = (kind: 'rdf:Bag' | 'rdf:Seq', items: readonly string[]) => [el(kind, items.map((t) => el('rdf:li', [text(t)])))];

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

/** The keywords and keyword paths a sidecar keeps that its item cannot hold ([Note: Keywords the item cannot hold]). */
interface NotHeld {
  keywords: string[];
  keywordPaths: string[];
}
const NONE_NOT_HELD: NotHeld = { keywords: [], keywordPaths: [] };

/** The item's own description, whether it says anything, and whether it is dated. */
function ownDescription(item: SidecarSource, notHeld: NotHeld = NONE_NOT_HELD): { node: XmlNode; said: boolean; dated: boolean } {
  const m = item.metadata;
  const attrs: Record<string, string> = {
    '@rdf:about': '',
    '@xmlns:dc': NS.dc,
    '@xmlns:xmp': NS.xmp,
    '@xmlns:photoshop': NS.photoshop,
    '@xmlns:lr': NS.lr,
  };
  const children: XmlNode[] = [];
  let said = false;
  const attr = (name: string, value: string | number | undefined) => {
    if (value === undefined || value === '') return;
    attrs[`@${name}`] = escapeXmlText(String(value));
    said = true;
  };
  const child = (name: string, value: XmlNode[]) => {
    children.push(el(name, value));
    said = true;
  };
  // When the details were last edited: not something a download's sidecar says on its own.
  const dated = !!item.editedAt && !Number.isNaN(Date.parse(item.editedAt));
  if (dated) attrs['@xmp:MetadataDate'] = new Date(item.editedAt!).toISOString();
  attr('xmp:Rating', m.rating);
  attr('xmp:Label', m.label);
  if (item.takenAt && !Number.isNaN(Date.parse(item.takenAt))) attr('photoshop:DateCreated', xmpDate(item.takenAt, m.takenOffset));
  if (m.title) child('dc:title', alt(m.title));
  if (m.description) child('dc:description', alt(m.description));
  const keywords = [...(m.keywords ?? []), ...notHeld.keywords];
  const keywordPaths = [...(m.keywordPaths ?? []), ...notHeld.keywordPaths];
  if (keywords.length) child('dc:subject', list('rdf:Bag', keywords));
  if (keywordPaths.length) child('lr:hierarchicalSubject', list('rdf:Bag', keywordPaths));
  if (notHeld.keywords.length || notHeld.keywordPaths.length) attrs['@xmlns:shoebox'] = NS.shoebox;
  if (notHeld.keywords.length) attrs['@shoebox:KeywordsNotHeld'] = String(notHeld.keywords.length);
  if (notHeld.keywordPaths.length) attrs['@shoebox:KeywordPathsNotHeld'] = String(notHeld.keywordPaths.length);
  // The item keeps the creators' names joined as they were read ("Ana Lima, Rui Sá"): one entry, as it is (a name
  // may hold a comma itself).
  if (m.creator) child('dc:creator', list('rdf:Seq', [m.creator]));
  if (m.rights) child('dc:rights', alt(m.rights));
  return { node: el('rdf:Description', children, attrs), said, dated };
}

function packet(tree: XmlNode[]): Uint8Array<ArrayBuffer> {
  const xml = builder.build(tree) as string;
  return new TextEncoder().encode(`<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>\n${xml.trim()}\n<?xpacket end="w"?>\n`);
}

const shell = (descriptions: XmlNode[]): XmlNode[] => [
  el('x:xmpmeta', [el('rdf:RDF', descriptions, { '@xmlns:rdf': NS.rdf })], { '@xmlns:x': NS.x, '@x:xmptk': 'Shoebox' }),
];

/** The sidecar of an item (for a download), or null when it has nothing a sidecar would say. */
export function buildXmpSidecar(item: SidecarSource): Uint8Array<ArrayBuffer> | null {
  const own = ownDescription(item);
  return own.said ? packet(shell([own.node])) : null;
}

const nameOf = (node: XmlNode) => Object.keys(node).find((k) => k !== ATTRS);
const attrsOf = (node: XmlNode) => (node[ATTRS] ?? {}) as Record<string, string>;
const childrenOf = (node: XmlNode, name: string) => (Array.isArray(node[name]) ? (node[name] as XmlNode[]) : []);

/** The namespaces in scope below `node`: its own `xmlns:` declarations over the ones around it. */
function scopeOf(node: XmlNode, around: ReadonlyMap<string, string>): Map<string, string> {
  const scope = new Map(around);
  for (const [k, v] of Object.entries(attrsOf(node))) if (k.startsWith('@xmlns:')) scope.set(k.slice('@xmlns:'.length), v);
  return scope;
}

const split = (qname: string): [string, string] => {
  const colon = qname.indexOf(':');
  return colon < 0 ? ['', qname] : [qname.slice(0, colon), qname.slice(colon + 1)];
};

const ownedAlways = (qname: string, scope: ReadonlyMap<string, string>) => {
  const [prefix, local] = split(qname);
  return OWNED.get(scope.get(prefix) ?? '')?.has(local) === true;
};

/** When the item was last edited: what the base said goes only when the item says it (a desktop tool's otherwise). */
const isMetadataDate = (qname: string, scope: ReadonlyMap<string, string>) => {
  const [prefix, local] = split(qname);
  return local === 'MetadataDate' && scope.get(prefix) === NS.xmp;
};

/** Takes the owned properties, attributes and elements alike, out of one description (`dated`: its date too). */
function withoutOwned(description: XmlNode, name: string, around: ReadonlyMap<string, string>, dated: boolean): XmlNode {
  const owned = (qname: string, scope: ReadonlyMap<string, string>) => ownedAlways(qname, scope) || (dated && isMetadataDate(qname, scope));
  const scope = scopeOf(description, around);
  const attrs = Object.fromEntries(Object.entries(attrsOf(description)).filter(([k]) => !owned(k.slice(1), scope)));
  const children = childrenOf(description, name).filter((child) => {
    const n = nameOf(child);
    return n === undefined || n.startsWith('#') || !owned(n, scopeOf(child, scope));
  });
  return { [name]: children, [ATTRS]: attrs };
}

/** The rdf:RDF element among `nodes` (the packet's root or under x:xmpmeta), with the namespaces in scope there. */
function findRdf(nodes: XmlNode[], around: ReadonlyMap<string, string>, depth = 0): { node: XmlNode; name: string; scope: Map<string, string> } | null {
  if (depth > 2) return null;
  for (const node of nodes) {
    const name = nameOf(node);
    if (!name || name.startsWith('#')) continue;
    const scope = scopeOf(node, around);
    const [prefix, local] = split(name);
    if (local === 'RDF' && scope.get(prefix) === NS.rdf) return { node, name, scope };
    const found = findRdf(childrenOf(node, name), scope, depth + 1);
    if (found) return found;
  }
  return null;
}

export interface MergeOptions {
  /** `base` is the sidecar uploaded with the item: its keywords the item does not have are ones it could not hold. */
  uploaded?: boolean;
}

type Rdf = NonNullable<ReturnType<typeof findRdf>>;

/** The descriptions under rdf:RDF, each with the namespaces in scope in it. */
function descriptionsOf(rdf: Rdf): { node: XmlNode; name: string; scope: Map<string, string> }[] {
  return childrenOf(rdf.node, rdf.name).flatMap((node) => {
    const name = nameOf(node);
    if (!name || name.startsWith('#')) return [];
    const scope = scopeOf(node, rdf.scope);
    const [prefix, local] = split(name);
    return local === 'Description' && scope.get(prefix) === NS.rdf ? [{ node, name, scope }] : [];
  });
}

/** The qualified name's namespace and local name, as bound in `scope`. */
const resolve = (qname: string, scope: ReadonlyMap<string, string>) => {
  const [prefix, local] = split(qname);
  return `${scope.get(prefix) ?? ''}${local}`;
};

/** The entries of a description's list property (a Bag or a Seq, or one value as an attribute), decoded, in order. */
function listIn(d: { node: XmlNode; name: string; scope: Map<string, string> }, property: string): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(attrsOf(d.node))) if (resolve(k.slice(1), d.scope) === property) out.push(v);
  for (const child of childrenOf(d.node, d.name)) {
    const name = nameOf(child);
    if (!name || name.startsWith('#') || resolve(name, scopeOf(child, d.scope)) !== property) continue;
    for (const container of childrenOf(child, name)) {
      const kind = nameOf(container);
      if (!kind || kind.startsWith('#')) continue;
      for (const li of childrenOf(container, kind)) {
        const liName = nameOf(li);
        if (!liName || liName.startsWith('#')) continue;
        const t = childrenOf(li, liName).find((n) => typeof n['#text'] === 'string')?.['#text'];
        if (typeof t === 'string') out.push(t);
      }
    }
  }
  return out.map((t) => decodeXmlEntities(t).trim()).filter(Boolean);
}

/** The value of a description's attribute, by namespace and local name. */
function attrIn(d: { node: XmlNode; scope: Map<string, string> }, property: string): string | undefined {
  return Object.entries(attrsOf(d.node)).find(([k]) => resolve(k.slice(1), d.scope) === property)?.[1];
}

const normalPath = (p: string) =>
  p
    .split('|')
    .map((level) => level.trim())
    .filter(Boolean)
    .join('|');

/** What `base` keeps that the item cannot hold ([Note: Keywords the item cannot hold]). */
function notHeldBy(rdf: Rdf, metadata: ItemMetadata, uploaded: boolean): NotHeld {
  const words = new Set(metadata.keywords ?? []);
  const paths = new Set(metadata.keywordPaths ?? []);
  // A keyword longer than the item allows is held cut short.
  const wordHeld = (k: string) => words.has(k) || words.has([...k.slice(0, KEYWORD_MAX_CHARS * 2)].slice(0, KEYWORD_MAX_CHARS).join('').trim());
  const notHeld = (list: string[], held: (v: string) => boolean) => [...new Set(list)].filter((v) => !held(v));
  const descriptions = descriptionsOf(rdf);
  const subject = NS.dc + 'subject';
  const hierarchy = NS.lr + 'hierarchicalSubject';
  if (uploaded) {
    return {
      keywords: notHeld(descriptions.flatMap((d) => listIn(d, subject)), wordHeld),
      keywordPaths: notHeld(descriptions.flatMap((d) => listIn(d, hierarchy).map(normalPath).filter(Boolean)), (p) => paths.has(p)),
    };
  }
  // The counted tail of our own description's lists.
  const tail = (property: string, countedBy: string) => {
    for (const d of descriptions) {
      const n = Number(attrIn(d, NS.shoebox + countedBy));
      if (Number.isInteger(n) && n > 0) return listIn(d, property).slice(-n);
    }
    return [];
  };
  return {
    keywords: notHeld(tail(subject, 'KeywordsNotHeld'), wordHeld),
    keywordPaths: notHeld(tail(hierarchy, 'KeywordPathsNotHeld').map(normalPath).filter(Boolean), (p) => paths.has(p)),
  };
}

/**
 * The sidecar stored beside an original: `base` (the sidecar uploaded with it, or the one stored before) with the
 * item's fields in place of its own, every other field kept. Without a usable base, the item's fields alone (an
 * empty packet when it has none: the stored sidecar then says nothing, as the item does).
 */
export function mergeXmpSidecar(base: string | null, item: SidecarSource, options: MergeOptions = {}): Uint8Array<ArrayBuffer> {
  // A packet with a DOCTYPE would carry entity references its copy could not resolve: not a base.
  const usable = base !== null && base.length <= MAX_BASE_CHARS && !/<!DOCTYPE|<!ENTITY/i.test(base) && XMLValidator.validate(base) === true;
  const tree = usable ? parseOrNull(base) : null;
  const rdf = tree ? findRdf(tree, new Map()) : null;
  const { node: own, said, dated } = ownDescription(item, rdf ? notHeldBy(rdf, item.metadata, options.uploaded === true) : NONE_NOT_HELD);
  const ours = said || dated ? [own] : [];
  if (!tree || !rdf) return packet(shell(ours));
  const kept = childrenOf(rdf.node, rdf.name).flatMap((child) => {
    const name = nameOf(child);
    if (!name || name.startsWith('#')) return [child];
    const scope = scopeOf(child, rdf.scope);
    const [prefix, local] = split(name);
    if (local !== 'Description' || scope.get(prefix) !== NS.rdf) return [child];
    const stripped = withoutOwned(child, name, rdf.scope, dated);
    // A description left with nothing but its subject and namespaces says nothing: it goes.
    const says = childrenOf(stripped, name).length > 0 || Object.keys(attrsOf(stripped)).some((k) => !k.startsWith('@xmlns:') && k !== `@${prefix}:about`);
    return says ? [stripped] : [];
  });
  // Our description names RDF as `rdf:`; a packet that binds the namespace to another prefix gets it declared.
  if (rdf.scope.get('rdf') !== NS.rdf) (own[ATTRS] as Record<string, string>)['@xmlns:rdf'] = NS.rdf;
  rdf.node[rdf.name] = [...kept, ...ours];
  return packet(tree);
}

/**
 * Whether a stored sidecar records an edit later than `editedAt` (its `MetadataDate`, as Shoebox and desktop tools
 * write it): then an edit written late must not go over it. A sidecar without one, or an item never edited, is not.
 */
export function editedLater(stored: string, editedAt: string | null | undefined): boolean {
  const mine = editedAt ? Date.parse(editedAt) : NaN;
  if (Number.isNaN(mine)) return false;
  const found = /:MetadataDate\s*=\s*["']([^"']+)["']|:MetadataDate>([^<]+)</.exec(stored.slice(0, MAX_BASE_CHARS));
  const theirs = found ? Date.parse((found[1] ?? found[2] ?? '').trim()) : NaN;
  return !Number.isNaN(theirs) && theirs > mine;
}

function parseOrNull(xml: string): XmlNode[] | null {
  try {
    return parser.parse(xml) as XmlNode[];
  } catch {
    return null;
  }
}
