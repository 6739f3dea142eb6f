import { XMLParser } from 'fast-xml-parser';
import { decodeXmlEntities } from '../lib/xml-entities';
import type { ItemMetadata } from '../domain/entities';
import { exifDateTaken } from './exif-date';

export type XmpFields = Pick<ItemMetadata, 'title' | 'description' | 'rating' | 'keywords' | 'keywordPaths' | 'label' | 'creator' | 'rights'> & {
  /** exif:DateTimeOriginal, photoshop:DateCreated or xmp:CreateDate, as an ISO instant in UTC. */
  takenAt?: string;
  /** That date's zone, in minutes east of UTC, when it had one. */
  takenOffset?: number;
};

/** A photographer's XMP packet is a few KB; anything far larger is not worth parsing on the way in. */
const MAX_XMP_CHARS = 2 * 1024 * 1024;
const TEXT_MAX = 2000;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  // Entities are never expanded (no DOCTYPE tricks); the five predefined ones are decoded below.
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Keep every value a string: a keyword "007" must not become the number 7.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => name === 'rdf:li' || name === 'rdf:Description',
});

/**
 * Reads what photographers set in Lightroom, darktable, digiKam and the like from an XMP packet: title,
 * description, rating, keywords, colour label, creator and rights. Unknown or malformed parts are left out,
 * never thrown.
 */
export function parseXmp(xml: string): XmpFields {
  if (!xml || xml.length > MAX_XMP_CHARS) return {};
  let tree: unknown;
  try {
    tree = parser.parse(xml);
  } catch {
    return {};
  }
  const out: XmpFields = {};
  for (const d of descriptions(tree)) {
    out.title ??= langAlt(prop(d, 'dc:title'));
    out.description ??= langAlt(prop(d, 'dc:description'));
    out.label ??= text(prop(d, 'xmp:Label') ?? prop(d, 'xap:Label'));
    out.rating ??= rating(text(prop(d, 'xmp:Rating') ?? prop(d, 'xap:Rating')));
    out.keywords ??= bag(prop(d, 'dc:subject'));
    // The keyword hierarchy: Lightroom's `Places|Portugal|Porto` (Capture One and darktable write the same),
    // else digiKam's `Places/Portugal/Porto` or Microsoft Photo's; kept the Lightroom way, each level trimmed,
    // empty levels dropped.
    out.keywordPaths ??=
      paths(bag(prop(d, 'lr:hierarchicalSubject')), '|') ??
      paths(bag(prop(d, 'digiKam:TagsList')), '/') ??
      paths(bag(prop(d, 'MicrosoftPhoto:LastKeywordXMP')), '/');
    // dc:creator is an ordered list of names (rdf:Seq); dc:rights language variants, like the title.
    out.creator ??= bag(prop(d, 'dc:creator'))?.join(', ');
    out.rights ??= langAlt(prop(d, 'dc:rights'));
    if (out.takenAt === undefined) {
      const taken =
        exifDateTaken(text(prop(d, 'exif:DateTimeOriginal'))) ??
        exifDateTaken(text(prop(d, 'photoshop:DateCreated'))) ??
        exifDateTaken(text(prop(d, 'xmp:CreateDate')));
      if (taken) {
        out.takenAt = taken.at;
        if (taken.offsetMinutes !== null) out.takenOffset = taken.offsetMinutes;
      }
    }
  }
  if (out.keywordPaths) {
    out.keywordPaths = [...new Set(out.keywordPaths)];
    // Every path's leaf is a keyword too (Lightroom writes both; a writer that gives only the paths gets its leaves).
    const words = out.keywords ?? [];
    for (const p of out.keywordPaths) {
      const leaf = p.slice(p.lastIndexOf('|') + 1);
      if (!words.includes(leaf)) words.push(leaf);
    }
    out.keywords = words;
    if (out.keywordPaths.length === 0) delete out.keywordPaths;
  }
  for (const key of Object.keys(out) as (keyof XmpFields)[]) if (out[key] === undefined) delete out[key];
  return out;
}

/** Hierarchical keywords written with `separator`, as `Top|Middle|Leaf`; undefined when there are none. */
function paths(list: string[] | undefined, separator: string): string[] | undefined {
  const out = list?.map((p) => p.split(separator).map((level) => level.trim()).filter(Boolean).join('|')).filter(Boolean);
  return out?.length ? out : undefined;
}

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every rdf:Description, wherever it sits (some writers omit x:xmpmeta, some nest them). */
function descriptions(tree: unknown, depth = 0, found: Node[] = []): Node[] {
  if (depth > 12) return found;
  if (Array.isArray(tree)) {
    for (const v of tree) descriptions(v, depth + 1, found);
  } else if (isNode(tree)) {
    for (const [key, v] of Object.entries(tree)) {
      if (key === 'rdf:Description') {
        for (const d of Array.isArray(v) ? v : [v]) if (isNode(d)) found.push(d);
      } else if (!key.startsWith('@') && key !== '#text') {
        descriptions(v, depth + 1, found);
      }
    }
  }
  return found;
}

/** A property is written either as an attribute of rdf:Description or as a child element. */
function prop(d: Node, name: string): unknown {
  return d[`@${name}`] ?? d[name];
}

function text(v: unknown): string | undefined {
  if (typeof v === 'string') return clean(v);
  if (isNode(v)) return text(v['#text']);
  return undefined;
}

/** rdf:Alt of language variants: the x-default one, else the first. */
function langAlt(v: unknown): string | undefined {
  if (!isNode(v)) return text(v);
  const items = liItems(v['rdf:Alt']);
  if (!items) return text(v);
  const preferred = items.find((li) => isNode(li) && li['@xml:lang'] === 'x-default') ?? items[0];
  return text(preferred);
}

/** rdf:Bag or rdf:Seq of keywords, de-duplicated in order. */
function bag(v: unknown): string[] | undefined {
  if (!isNode(v)) {
    const single = text(v);
    return single ? [single] : undefined;
  }
  const items = liItems(v['rdf:Bag'] ?? v['rdf:Seq']);
  if (!items) return undefined;
  const words = [...new Set(items.map(text).filter((w): w is string => !!w))];
  return words.length ? words : undefined;
}

function liItems(container: unknown): unknown[] | undefined {
  if (!isNode(container)) return undefined;
  const li = container['rdf:li'];
  return Array.isArray(li) ? li : undefined;
}

function rating(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  // XMP ratings are -1 (rejected) to 5; some tools write "3.0".
  return Number.isFinite(n) && n >= -1 && n <= 5 ? Math.round(n) : undefined;
}

function clean(raw: string): string | undefined {
  const decoded = decodeXmlEntities(raw);
  // Control characters (other than line breaks and tabs) never reach the item.
  // eslint-disable-next-line no-control-regex
  const s = decoded.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').trim();
  return s ? s.slice(0, TEXT_MAX) : undefined;
}
