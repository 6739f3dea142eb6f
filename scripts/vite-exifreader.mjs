// ExifReader's custom build, done by our own bundler. See [Note: The EXIF reader's build].
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseAst } from 'vite';

/**
 * [Note: The EXIF reader's build]
 * ExifReader reads every format and every tag group unless it is built for less. Its own way is a webpack build
 * into node_modules/exifreader/dist (`npx exifreader build`, which installs webpack and Babel on every install),
 * while Vite bundles its ES module source, which that build never touches. This plugin applies the same build
 * to that source, from a configuration in ExifReader's own format (scripts/exifreader-build.json: not the
 * `exifreader` key of package.json, which would make ExifReader's install script try a webpack build of its own
 * wherever dependencies' install scripts run, and fail the install), in every bundle that reads EXIF (the app, the
 * media worker, the tests):
 *   - each `Constants.USE_<MODULE>` becomes `true` or `false`, as the webpack build's string replacement does, so
 *     the minifier drops every file format, tag group and decoder that is not wanted;
 *   - the EXIF tag dictionaries (IFD0, the Exif, GPS and Interoperability IFDs) keep only the tags listed, as its
 *     Babel TagFilterPlugin does. A tag not in them is unknown, and ExifReader leaves unknown tags out
 *     (`includeUnknown: false`), pointers included: the GPS IFD's pointer is not listed, so the GPS IFD is never
 *     even read.
 * The shipped configuration is the TIFF reader and the EXIF tags the app reads: the photo's EXIF block is found
 * by offset in its container (metadata-blocks.ts) and handed over on its own, a TIFF structure.
 */
const require = createRequire(import.meta.url);
const parseConfig = require('exifreader/bin/parse-config.js');

const SOURCE_ENTRY = require.resolve('exifreader/src/exif-reader.js');
const SOURCE = /[\\/]node_modules[\\/]exifreader[\\/]src[\\/]([\w-]+)\.js$/;
const EXIF_TAG_FILES = new Set(['tag-names-0th-ifd', 'tag-names-exif-ifd', 'tag-names-gps-ifd', 'tag-names-interoperability-ifd']);

/** ExifReader's module map (module → true, false or the tags kept) from its build configuration, as webpack.config.js makes it. */
export function exifReaderModules(configPath) {
  const exifreader = JSON.parse(readFileSync(configPath, 'utf8'));
  if (!exifreader?.include) throw new Error(`${configPath}: \`include\` is missing`);
  const include = { ...exifreader.include };
  if (Array.isArray(include.exif)) {
    // The pointer to the Exif IFD, without which none of its tags is found (webpack.config.js adds it too).
    include.exif = [...include.exif, 'Exif IFD Pointer'];
    if (include.exif.some((t) => /^gps/i.test(t))) throw new Error(`${configPath}: the EXIF reader must not read GPS tags`);
  }
  return parseConfig({ include });
}

/** Removes the dictionary entries of tags not in `keep` (lower-case names) from a tag-names module's default export. */
function filterTagNames(code, keep) {
  const program = parseAst(code);
  const exported = program.body.find((n) => n.type === 'ExportDefaultDeclaration')?.declaration;
  if (exported?.type !== 'ObjectExpression') throw new Error('exifreader: unexpected tag-names module');
  const cuts = [];
  exported.properties.forEach((p, i) => {
    if (p.type !== 'Property' || p.key.type !== 'Literal' || typeof p.key.value !== 'number') return;
    const name =
      p.value.type === 'Literal'
        ? p.value.value
        : p.value.type === 'ObjectExpression'
          ? p.value.properties.find((q) => (q.key.name ?? q.key.value) === 'name')?.value.value
          : undefined;
    // A name computed at run time (none in the EXIF dictionaries today) is kept rather than guessed at.
    if (typeof name !== 'string' || keep.has(name.toLowerCase())) return;
    const next = exported.properties[i + 1];
    cuts.push([p.start, next ? next.start : p.end]);
  });
  let out = code;
  for (const [from, to] of cuts.reverse()) out = out.slice(0, from) + out.slice(to);
  return out;
}

/** The Vite plugin: ExifReader's source built for `modules` (exifReaderModules). */
export function exifReaderBuild(configPath) {
  const modules = exifReaderModules(configPath);
  const keepExif = Array.isArray(modules.exif) ? new Set(modules.exif.map((t) => t.toLowerCase())) : null;
  return {
    name: 'shoebox:exifreader-build',
    enforce: 'pre',
    // Its ES module source, whatever the environment would pick (Node's resolution takes the prebuilt `main`).
    resolveId(source) {
      return source === 'exifreader' ? SOURCE_ENTRY : null;
    },
    transform(code, id) {
      const file = SOURCE.exec(id.split('?')[0])?.[1];
      if (!file) return null;
      let out = code.replace(/Constants\.USE_([A-Z_]+)/g, (whole, module) => {
        const value = modules[module.toLowerCase()];
        return value === undefined ? whole : JSON.stringify(!!value);
      });
      if (keepExif && EXIF_TAG_FILES.has(file)) out = filterTagNames(out, keepExif);
      return out === code ? null : { code: out, map: null };
    },
  };
}
