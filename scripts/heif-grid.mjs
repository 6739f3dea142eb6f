// HEIF files laid out as phones write them: the picture cut into tiles (512 × 512 on iPhones), each tile its own
// HEVC image, and a `grid` item, the primary one, that puts them together and crops the edge tiles to the
// picture's size. libheif's heif-enc (Debian's 1.15) writes a single image only, so each tile is encoded by
// heif-enc and the tiles' coded data is put together here under a grid (ISO/IEC 23008-12 §6.6.2.3).
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

/** The boxes of bytes[from, to) as [type, start, end] (start at the size field). */
export function heifBoxes(bytes, from, to) {
  const out = [];
  for (let at = from; at + 8 <= to; ) {
    const size = bytes.readUInt32BE(at);
    if (size < 8 || at + size > to) throw new Error('HEIF: a box runs past its parent');
    out.push([bytes.toString('latin1', at + 4, at + 8), at, at + size]);
    at += size;
  }
  return out;
}

export const withSize = (type, body) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};

/** An `iloc` field of `n` bytes (0, 4 or 8) at `at`, read or written. */
export const readN = (bytes, n, at) => (n === 0 ? 0 : n === 4 ? bytes.readUInt32BE(at) : Number(bytes.readBigUInt64BE(at)));
export const writeN = (bytes, n, at, value) => (n === 4 ? bytes.writeUInt32BE(value, at) : bytes.writeBigUInt64BE(BigInt(value), at));

/**
 * The items of the `iloc` box at `start` (its size field), any version: each one's id, construction method and
 * where its base offset and its extents' offsets and lengths lie; the fields' sizes; where the box's entries end.
 */
export function ilocItems(bytes, start) {
  const version = bytes[start + 8];
  let at = start + 12;
  const offsetSize = bytes[at] >> 4, lengthSize = bytes[at] & 15, baseSize = bytes[at + 1] >> 4, indexSize = version ? bytes[at + 1] & 15 : 0;
  at += 2;
  const wide = version >= 2;
  const count = wide ? bytes.readUInt32BE(at) : bytes.readUInt16BE(at);
  at += wide ? 4 : 2;
  const items = [];
  for (let i = 0; i < count; i++) {
    const id = wide ? bytes.readUInt32BE(at) : bytes.readUInt16BE(at);
    at += wide ? 4 : 2;
    const method = version ? bytes.readUInt16BE(at) & 15 : 0;
    if (version) at += 2;
    at += 2; // data reference index
    const baseAt = at;
    at += baseSize;
    const extentCount = bytes.readUInt16BE(at);
    at += 2;
    const extents = [];
    for (let e = 0; e < extentCount; e++) {
      at += indexSize;
      extents.push({ offsetAt: at, lengthAt: at + offsetSize });
      at += offsetSize + lengthSize;
    }
    items.push({ id, method, baseAt, extents });
  }
  return { offsetSize, lengthSize, baseSize, items, end: at };
}

const fullBox = (type, version, flags, body) => withSize(type, Buffer.concat([Buffer.from([version, (flags >> 16) & 255, (flags >> 8) & 255, flags & 255]), body]));

const u16 = (...values) => {
  const b = Buffer.alloc(2 * values.length);
  values.forEach((v, i) => b.writeUInt16BE(v, 2 * i));
  return b;
};
const u32 = (...values) => {
  const b = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => b.writeUInt32BE(v, 4 * i));
  return b;
};

const child = (bytes, [, start, end], type, header = 8) => {
  const found = heifBoxes(bytes, start + header, end).find(([t]) => t === type);
  if (!found) throw new Error(`HEIF: no ${type} box`);
  return found;
};

/** The one picture of a file heif-enc wrote (no thumbnail): its properties but `ispe`, its size and its coded data. */
function singlePicture(heic) {
  const meta = heifBoxes(heic, 0, heic.length).find(([t]) => t === 'meta');
  if (!meta) throw new Error('HEIF: no meta box');
  const ipco = child(heic, child(heic, meta, 'iprp', 12), 'ipco');
  const properties = heifBoxes(heic, ipco[1] + 8, ipco[2]);
  const ispe = properties.find(([t]) => t === 'ispe');
  if (!ispe) throw new Error('HEIF: no ispe');
  const [, is, ie] = child(heic, meta, 'iloc', 12);
  const { offsetSize, lengthSize, baseSize, items, end } = ilocItems(heic, is);
  if (items.length !== 1) throw new Error(`HEIF: ${items.length} items where heif-enc writes one`);
  if (end > ie) throw new Error('HEIF: iloc runs past its box');
  const [{ baseAt, extents }] = items;
  const base = readN(heic, baseSize, baseAt);
  const data = extents.map(({ offsetAt, lengthAt }) => {
    const offset = base + readN(heic, offsetSize, offsetAt);
    return heic.subarray(offset, offset + readN(heic, lengthSize, lengthAt));
  });
  return {
    properties: properties.filter(([t]) => t !== 'ispe').map(([, s, e]) => heic.subarray(s, e)),
    width: heic.readUInt32BE(ispe[1] + 12),
    height: heic.readUInt32BE(ispe[1] + 16),
    data: Buffer.concat(data),
  };
}

/**
 * A HEIF whose primary item is a `columns` × `rows` grid of the one-picture HEIFs `tiles` (row by row, each as
 * heif-enc wrote it, all of one size and coding), cropped to `width` × `height`.
 */
export function gridHeic(tiles, { columns, rows, width, height }) {
  if (tiles.length !== columns * rows) throw new Error(`HEIF grid: ${tiles.length} tiles for ${columns} × ${rows}`);
  const coded = tiles.map(singlePicture);
  const [first] = coded;
  for (const c of coded) {
    const same = c.width === first.width && c.height === first.height && c.properties.length === first.properties.length && c.properties.every((p, i) => p.equals(first.properties[i]));
    if (!same) throw new Error('HEIF grid: the tiles are not coded alike');
  }
  if (width > columns * first.width || height > rows * first.height) throw new Error('HEIF grid: the tiles do not cover the picture');
  const gridId = 1;
  const tileIds = coded.map((_, i) => i + 2);
  // Properties, numbered from 1: the tiles' own (hvcC, colr, pixi…), the tile size, the picture's size.
  const shared = first.properties;
  const tileSize = shared.length + 1;
  const pictureSize = shared.length + 2;
  const ispe = (w, h) => fullBox('ispe', 0, 0, u32(w, h));
  const ipco = withSize('ipco', Buffer.concat([...shared, ispe(first.width, first.height), ispe(width, height)]));
  const essential = (box, index) => (['hvcC', 'colr'].includes(box.toString('latin1', 4, 8)) ? 0x80 | index : index);
  const association = (id, indexes) => Buffer.concat([u16(id), Buffer.from([indexes.length, ...indexes])]);
  const colr = shared.findIndex((p) => p.toString('latin1', 4, 8) === 'colr');
  const ipma = fullBox(
    'ipma',
    0,
    0,
    Buffer.concat([
      u32(1 + tileIds.length),
      association(gridId, [pictureSize, ...(colr >= 0 ? [0x80 | (colr + 1)] : [])]),
      ...tileIds.map((id) => association(id, [...shared.map((p, i) => essential(p, i + 1)), tileSize])),
    ]),
  );
  const infe = (id, type, hidden) => fullBox('infe', 2, hidden ? 1 : 0, Buffer.concat([u16(id, 0), Buffer.from(`${type}\0`, 'latin1')]));
  const iinf = fullBox('iinf', 0, 0, Buffer.concat([u16(1 + tileIds.length), infe(gridId, 'grid', false), ...tileIds.map((id) => infe(id, 'hvc1', true))]));
  const iref = fullBox('iref', 0, 0, withSize('dimg', Buffer.concat([u16(gridId, tileIds.length), u16(...tileIds)])));
  // version 0, 16-bit sizes
  const descriptor = Buffer.concat([Buffer.from([0, 0, rows - 1, columns - 1]), u16(width, height)]);
  const meta = (mdatData) => {
    // iloc version 1: 4-byte offsets and lengths; the grid's descriptor in idat (construction method 1).
    const entries = [Buffer.concat([u16(gridId, 1, 0, 1), u32(0, descriptor.length)])];
    let offset = mdatData;
    for (const [i, id] of tileIds.entries()) {
      entries.push(Buffer.concat([u16(id, 0, 0, 1), u32(offset, coded[i].data.length)]));
      offset += coded[i].data.length;
    }
    const iloc = fullBox('iloc', 1, 0, Buffer.concat([Buffer.from([0x44, 0x00]), u16(entries.length), ...entries]));
    const hdlr = fullBox('hdlr', 0, 0, Buffer.concat([u32(0), Buffer.from('pict', 'latin1'), u32(0, 0, 0), Buffer.from([0])]));
    const pitm = fullBox('pitm', 0, 0, u16(gridId));
    return fullBox('meta', 0, 0, Buffer.concat([hdlr, pitm, iloc, iinf, iref, withSize('iprp', Buffer.concat([ipco, ipma])), withSize('idat', descriptor)]));
  };
  const ftyp = withSize('ftyp', Buffer.from('heic\0\0\0\0mif1heic', 'latin1'));
  const metaLength = meta(0).length;
  const mdat = withSize('mdat', Buffer.concat(coded.map((c) => c.data)));
  return Buffer.concat([ftyp, meta(ftyp.length + metaLength + 8), mdat]);
}

/**
 * `input` (anything sharp reads) as a phone would store it: a grid of `tile`-pixel HEVC tiles at heif-enc's
 * `quality`, the edge tiles padded by repeating the picture's edge and cropped away by the grid.
 */
export async function encodeGridHeic(input, { tile = 512, quality = 80 } = {}) {
  const { width, height } = await sharp(input).metadata();
  const columns = Math.ceil(width / tile);
  const rows = Math.ceil(height / tile);
  const padded = await sharp(input)
    .extend({ right: columns * tile - width, bottom: rows * tile - height, extendWith: 'copy' })
    .png({ compressionLevel: 0 })
    .toBuffer();
  const work = await mkdtemp(join(tmpdir(), 'shoebox-heif-grid-'));
  try {
    const tiles = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < columns; c++) {
        const png = join(work, 'tile.png');
        const out = join(work, 'tile.heic');
        await writeFile(png, await sharp(padded).extract({ left: c * tile, top: r * tile, width: tile, height: tile }).png({ compressionLevel: 0 }).toBuffer());
        const enc = spawnSync('heif-enc', ['-q', String(quality), '-o', out, png], { encoding: 'utf8' });
        if (enc.status !== 0) throw new Error(`heif-enc failed: ${enc.stderr}`);
        tiles.push(await readFile(out));
      }
    }
    return gridHeic(tiles, { columns, rows, width, height });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
