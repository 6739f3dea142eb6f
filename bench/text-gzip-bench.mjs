// Text files stored gzip-compressed ([Note: Text files are stored gzip-compressed] in src/media/text-compression.ts):
// bytes saved on a corpus of generated, realistic text files (CSV, TSV, JSON, GPX, KML, logs, markdown, notes), and
// the time to compress in the app's way (pako, 1 MiB pieces) and to inflate in the app's way (inflatedStream,
// capped), against Node's native zlib at the same level as the named peer. Target: at least half of the corpus's
// bytes saved, and every stored file reading back byte for byte. Writes bench/results/text-gzip.md.
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { root } from '../scripts/built-app.mjs';
import { writeResult } from './bench-utils.mjs';

const TARGET_SAVED = 0.5;

const out = await build({
  stdin: {
    contents: `export { gzipText, isCompressibleText } from './src/media/text-compression.ts'; export { inflatedStream } from './src/lib/inflate-capped.ts';`,
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'node',
  logLevel: 'error',
});
const { gzipText, isCompressibleText, inflatedStream } = await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);

// A seeded generator: the same corpus every run.
let seed = 0x5eed;
const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const WORDS = 'the a album photo trip harbour morning evening walk along coast river bridge station market coffee rain sun wind light family friends camera lens print frame garden old town square museum tower castle hill road map north south east west route ride return weekend summer winter spring autumn memory note list plan budget receipt ticket train ferry bus flight hotel room breakfast dinner'.split(' ');
const sentence = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
const iso = (t) => new Date(t).toISOString();

function sensorCsv(rows) {
  const lines = ['timestamp,station,latitude,longitude,temperature_c,humidity_pct,pressure_hpa'];
  let t = Date.UTC(2026, 0, 1);
  for (let i = 0; i < rows; i++) {
    t += 60_000;
    const s = i % 24;
    lines.push(`${iso(t)},ST-${String(s).padStart(3, '0')},${(38.7 + s * 0.01).toFixed(5)},${(-9.14 - s * 0.01).toFixed(5)},${(14 + 6 * Math.sin(i / 700) + rand()).toFixed(2)},${Math.floor(55 + 20 * rand())},${(1013 + 5 * rand()).toFixed(1)}`);
  }
  return lines.join('\n') + '\n';
}
function transactionsTsv(rows) {
  const lines = ['date\tpayee\tcategory\tamount\tcurrency\tnote'];
  let t = Date.UTC(2025, 0, 1);
  for (let i = 0; i < rows; i++) {
    t += Math.floor(rand() * 86_400_000);
    lines.push(`${iso(t).slice(0, 10)}\t${pick(['Pingo Doce', 'Continente', 'CP Comboios', 'EDP', 'Vodafone', 'Café Central', 'Farmácia Sá', 'Uber', 'Amazon'])}\t${pick(['groceries', 'travel', 'utilities', 'eating out', 'health', 'shopping'])}\t${(rand() * 120).toFixed(2)}\tEUR\t${sentence(Math.floor(rand() * 5))}`);
  }
  return lines.join('\n') + '\n';
}
function photosJson(n) {
  const items = Array.from({ length: n }, (_, i) => ({
    id: `${(i * 2654435761 >>> 0).toString(16).padStart(8, '0')}-4c1e-9a7b-${String(i).padStart(12, '0')}`,
    filename: `IMG_${String(1000 + i).padStart(4, '0')}.JPG`,
    takenAt: iso(Date.UTC(2026, 6, 1) + i * 37_000),
    width: pick([4032, 6000, 3024]),
    height: pick([3024, 4000, 4032]),
    camera: { make: pick(['Canon', 'FUJIFILM', 'Apple', 'SONY']), model: pick(['EOS R6', 'X-T5', 'iPhone 15 Pro', 'ILCE-7M4']) },
    exposure: { iso: pick([100, 200, 400, 800, 1600]), fNumber: pick([1.8, 2.8, 4, 5.6, 8]), exposureTime: pick(['1/60', '1/125', '1/250', '1/1000']) },
    keywords: Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(WORDS)),
    title: sentence(3 + Math.floor(rand() * 5)),
  }));
  return JSON.stringify(items, null, 2);
}
function trackGpx(points) {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<gpx version="1.1" creator="Shoebox bench" xmlns="http://www.topografix.com/GPX/1/1">', '  <trk><name>Ride along the coast</name><trkseg>'];
  let lat = 38.6916;
  let lon = -9.2159;
  let t = Date.UTC(2026, 7, 14, 7);
  for (let i = 0; i < points; i++) {
    lat += (rand() - 0.45) * 0.0002;
    lon -= rand() * 0.0002;
    t += 1000;
    lines.push(`    <trkpt lat="${lat.toFixed(7)}" lon="${lon.toFixed(7)}"><ele>${(20 + 30 * Math.sin(i / 300)).toFixed(1)}</ele><time>${iso(t)}</time><extensions><hr>${120 + Math.floor(rand() * 40)}</hr><cad>${80 + Math.floor(rand() * 15)}</cad></extensions></trkpt>`);
  }
  lines.push('  </trkseg></trk>', '</gpx>');
  return lines.join('\n') + '\n';
}
function placesKml(n) {
  const marks = Array.from({ length: n }, () => `  <Placemark><name>${sentence(2)}</name><description>${sentence(12)}</description><Point><coordinates>${(-9.1 - rand()).toFixed(6)},${(38.7 + rand()).toFixed(6)},0</coordinates></Point></Placemark>`);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<kml xmlns="http://www.opengis.net/kml/2.2"><Document>', ...marks, '</Document></kml>'].join('\n') + '\n';
}
function accessLog(lines) {
  const out = [];
  let t = Date.UTC(2026, 10, 27);
  for (let i = 0; i < lines; i++) {
    t += Math.floor(rand() * 400);
    const ip = `${10 + Math.floor(rand() * 3)}.${Math.floor(rand() * 255)}.${Math.floor(rand() * 255)}.${Math.floor(rand() * 255)}`;
    out.push(`${ip} - - [${new Date(t).toUTCString()}] "${pick(['GET', 'GET', 'GET', 'POST', 'PUT'])} ${pick(['/', '/albums', '/albums/3f2a/items', '/s/Xk2pQ', '/assets/index-4f9c.js', '/api/v1/items?cursor=abc'])} HTTP/1.1" ${pick([200, 200, 200, 304, 404, 201])} ${Math.floor(rand() * 50_000)} "-" "${pick(['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36', 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Version/18.1 Mobile Safari/604.1'])}"`);
  }
  return out.join('\n') + '\n';
}
function appLog(lines) {
  const out = [];
  let t = Date.UTC(2026, 10, 27, 9);
  for (let i = 0; i < lines; i++) {
    t += Math.floor(rand() * 2000);
    out.push(`${iso(t)} ${pick(['INFO ', 'INFO ', 'DEBUG', 'WARN ', 'ERROR'])} [${pick(['upload', 'share-open', 'purge', 'storage-sign'])}] ${pick(['request done', 'part confirmed', 'retrying after 503', 'link opened', 'object removed'])} id=${Math.floor(rand() * 1e9).toString(36)} ms=${Math.floor(rand() * 900)}`);
  }
  return out.join('\n') + '\n';
}
function markdown(sections) {
  const out = ['# Trip notes', ''];
  for (let s = 0; s < sections; s++) {
    out.push(`## Day ${s + 1}: ${sentence(3)}`, '', sentence(60) + '.', '', ...Array.from({ length: 4 }, () => `- ${sentence(8)}`), '', `| time | place | cost |`, `| --- | --- | --- |`, ...Array.from({ length: 3 }, () => `| ${Math.floor(rand() * 24)}:00 | ${sentence(2)} | ${(rand() * 40).toFixed(2)} € |`), '');
  }
  return out.join('\n');
}

const corpus = [
  ['weather-stations.csv', sensorCsv(120_000)],
  ['transactions.tsv', transactionsTsv(20_000)],
  ['photos-export.json', photosJson(6_000)],
  ['coastal-ride.gpx', trackGpx(30_000)],
  ['places.kml', placesKml(800)],
  ['access.log', accessLog(60_000)],
  ['app.log', appLog(40_000)],
  ['trip-notes.md', markdown(120)],
  ['shopping.txt', 'eggs\nmilk\nbread\n'],
  ['config.json', '{"theme":"dark","lang":"pt"}\n'],
].map(([name, text]) => [name, new TextEncoder().encode(text)]);

const rows = [];
let total = 0;
let stored = 0;
let peerTotal = 0;
let allExact = true;
for (const [name, bytes] of corpus) {
  const sniffed = name.endsWith('.gpx') || name.endsWith('.kml') ? 'application/xml' : 'text/plain';
  const eligible = isCompressibleText(name, sniffed, bytes.length);
  const t0 = performance.now();
  const packed = eligible ? await gzipText(new Blob([bytes])) : null;
  const compressMs = performance.now() - t0;
  const t1 = performance.now();
  const peer = gzipSync(bytes, { level: 6 });
  const peerMs = performance.now() - t1;
  let inflateMs = 0;
  if (packed) {
    const t2 = performance.now();
    const back = new Uint8Array(await new Response(inflatedStream(packed.stream(), { bytes: bytes.length })).arrayBuffer());
    inflateMs = performance.now() - t2;
    if (!Buffer.from(back).equals(Buffer.from(bytes))) allExact = false;
  }
  const size = packed ? packed.size : bytes.length;
  total += bytes.length;
  stored += size;
  peerTotal += Math.min(peer.length, bytes.length);
  rows.push([name, bytes.length.toLocaleString('en'), size.toLocaleString('en'), packed ? `${(100 * (1 - size / bytes.length)).toFixed(1)} %` : 'stored as is', peer.length.toLocaleString('en'), packed ? compressMs.toFixed(0) : '–', peerMs.toFixed(0), packed ? inflateMs.toFixed(0) : '–']);
}
const saved = 1 - stored / total;
const met = saved >= TARGET_SAVED && allExact;
rows.push(['**corpus**', total.toLocaleString('en'), stored.toLocaleString('en'), `**${(100 * saved).toFixed(1)} %**`, peerTotal.toLocaleString('en'), '', '', '']);

writeResult(
  'text-gzip',
  'Text files stored gzip-compressed: bytes saved',
  ['file', 'bytes', 'stored (ours)', 'saved', 'node zlib -6 (peer)', 'compress ours (ms)', 'compress peer (ms)', 'inflate ours (ms)'],
  rows,
  [
    `Target: at least ${100 * TARGET_SAVED} % of the corpus saved, every stored file reading back byte for byte. Saved ${(100 * saved).toFixed(1)} % (${(total - stored).toLocaleString('en')} of ${total.toLocaleString('en')} bytes), ${allExact ? 'all exact' : 'NOT all exact'}: ${met ? 'met' : 'missed'}.`,
    `Ours: pako level 6 in 1 MiB pieces (as the media worker runs it), stored only when it saves 10 % or more; inflation through the app's capped stream. Peer: Node's native zlib, level 6, whole buffer.`,
    'The corpus is generated with a fixed seed: sensor CSV, bank TSV, a photo export in JSON, a GPX ride, KML places, web and app logs, markdown notes, and two tiny files that stay as they are.',
  ],
);
process.exit(met ? 0 : 1);
