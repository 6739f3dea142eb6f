import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, expect, test } from 'vitest';
import { planZip, type ZipItem } from '../../src/features/downloads/zip-plan';
import { zipStream } from '../../src/features/downloads/zip-stream';

const GiB = 1024 ** 3;
const dir = mkdtempSync(join(tmpdir(), 'shoebox-zip64-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function item(id: string, filename: string, bytes: number): ZipItem {
  return { id, filename, kind: 'file', mime: 'application/octet-stream', bytes, sha256: null, takenAt: '2024-05-01T10:00:00Z', createdAt: '2025-01-01T00:00:00Z', width: null, height: null, durationMs: null, metadata: {} };
}

/** `bytes` of a repeating pattern that differs per file (so a misplaced or missing chunk changes the CRC). */
function generated(bytes: number, seed: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(4 * 1024 * 1024);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31 + seed * 7 + (i >>> 12)) & 0xff;
  let left = bytes;
  return new ReadableStream({
    pull(controller) {
      if (left === 0) return controller.close();
      const n = Math.min(left, chunk.length);
      left -= n;
      controller.enqueue(chunk.slice(0, n));
    },
  });
}

// The archive passes 4 GiB and so does one entry inside it: both need ZIP64 records, which 32-bit readers
// and writers get wrong (archives capped or corrupt at 4 GiB are a known failure of photo apps).
test('an archive over 4 GiB with an entry over 4 GiB passes unzip -t and Python zipfile', async () => {
  const items = [item('a', 'small.bin', 1000), item('b', 'huge.bin', 4 * GiB + 12_345), item('c', 'Small.bin', 3), item('d', '../after.bin', 5 * 1024 * 1024)];
  const plan = planZip(items);
  const { stream, size } = await zipStream(plan, async (entry) => generated(entry.size, items.indexOf(entry.item)));
  expect(size).toBeGreaterThan(4 * GiB);
  const path = join(dir, 'big.zip');
  await stream.pipeTo(Writable.toWeb(createWriteStream(path)));
  expect(statSync(path).size).toBe(size);

  const unzip = execFileSync('unzip', ['-t', path], { encoding: 'utf8', maxBuffer: 1 << 20 });
  expect(unzip).toContain('No errors detected');
  const python = execFileSync('python3', ['-c', [
    'import sys, zipfile, json',
    'z = zipfile.ZipFile(sys.argv[1])',
    'print(json.dumps({"bad": z.testzip(), "names": z.namelist(), "sizes": [i.file_size for i in z.infolist()]}))',
  ].join('\n'), path], { encoding: 'utf8' });
  const report = JSON.parse(python) as { bad: string | null; names: string[]; sizes: number[] };
  expect(report.bad).toBeNull();
  expect(report.names).toEqual(['manifest.json', 'small.bin', 'huge.bin', 'Small (2).bin', '.._after.bin']);
  expect(report.sizes.slice(1)).toEqual(items.map((i) => i.bytes));
  rmSync(path);
}, 900_000);
