/**
 * ExifTool reading what a test made, for the location tests in Node: each file is written to a folder of the test
 * file's own, removed after it. Registers its hooks in the test file that calls it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ensureExiftool } from '../../scripts/ensure-exiftool.mjs';

/** A reader of bytes as ExifTool sees them (`-j -a -G1`, and `extra`), the tags keyed `Group:Name`. */
export function exiftoolReader(prefix: string, extra: string[] = []): (bytes: Uint8Array, name: string) => Record<string, unknown> {
  let dir = '';
  beforeAll(() => {
    ensureExiftool();
    dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (bytes, name) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return (JSON.parse(execFileSync('exiftool', ['-j', ...extra, '-a', '-G1', path], { encoding: 'utf8' })) as Record<string, unknown>[])[0]!;
  };
}
