// The privacy tests read and write photographs' metadata with ExifTool (Debian: libimage-exiftool-perl).
import { spawnSync } from 'node:child_process';
import { ensureDebianTool } from './ensure-debian-tool.mjs';

export const ensureExiftool = () => ensureDebianTool('exiftool', ['-ver'], 'libimage-exiftool-perl');

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureExiftool();
  console.log(spawnSync('exiftool', ['-ver'], { encoding: 'utf8' }).stdout.trim());
}
