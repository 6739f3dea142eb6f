/**
 * XMP sidecars added with their photos: found by name among the files of one batch, read, and given to the
 * photo's task instead of becoming items ([Note: Sidecars merge into their photo] in media/sidecar-fields.ts).
 */

/** A sidecar is a few KB, with develop settings a few hundred; a larger `.xmp` is kept as the file it is. */
export const MAX_SIDECAR_BYTES = 1024 * 1024;

export interface PairedFiles {
  /** The files to upload, in the order given, without the sidecars merged into one of them. */
  files: File[];
  /** Their ids, when the batch came with ids (a share), kept beside their files. */
  ids?: string[];
  /** By index in `files`: the text of the sidecar that goes with that file. */
  sidecars: Map<number, string>;
}

const lower = (name: string) => name.toLowerCase();
const stem = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
};

/**
 * Pairs `IMG_1.CR3.xmp` with `IMG_1.CR3` and `IMG_1.xmp` with every `IMG_1.*` of the batch (a RAW and the JPEG the
 * camera made beside it are one photo), names compared without case. A sidecar that matches nothing, is too large,
 * or holds no XMP packet stays a file of its own.
 */
export async function pairSidecars(files: readonly File[], ids?: readonly string[]): Promise<PairedFiles> {
  const byName = new Map<string, number[]>();
  const byStem = new Map<string, number[]>();
  files.forEach((f, i) => {
    if (lower(f.name).endsWith('.xmp')) return;
    byName.set(lower(f.name), [...(byName.get(lower(f.name)) ?? []), i]);
    byStem.set(lower(stem(f.name)), [...(byStem.get(lower(stem(f.name))) ?? []), i]);
  });
  const merged = new Set<number>();
  const textFor = new Map<number, string>();
  for (const [i, f] of files.entries()) {
    const name = lower(f.name);
    if (!name.endsWith('.xmp') || f.size === 0 || f.size > MAX_SIDECAR_BYTES) continue;
    const base = name.slice(0, -'.xmp'.length);
    const targets = byName.get(base) ?? byStem.get(base);
    if (!targets) continue;
    let text: string;
    try {
      text = await f.text();
    } catch {
      continue; // unreadable now: it goes up as a file, and says so there
    }
    if (!/<x:xmpmeta[\s>]|<rdf:RDF[\s>]/.test(text)) continue;
    merged.add(i);
    // A file named exactly (`IMG_1.CR3.xmp`) wins over one that shares its stem (`IMG_1.xmp`).
    for (const t of targets) if (!textFor.has(t) || byName.has(base)) textFor.set(t, text);
  }
  if (merged.size === 0) return { files: [...files], ...(ids ? { ids: [...ids] } : {}), sidecars: new Map() };
  const kept: File[] = [];
  const keptIds: string[] = [];
  const sidecars = new Map<number, string>();
  files.forEach((f, i) => {
    if (merged.has(i)) return;
    const text = textFor.get(i);
    if (text !== undefined) sidecars.set(kept.length, text);
    kept.push(f);
    if (ids) keptIds.push(ids[i]!);
  });
  return { files: kept, ...(ids ? { ids: keptIds } : {}), sidecars };
}
