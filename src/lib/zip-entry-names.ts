/**
 * The names of a ZIP's entries, made from the filenames people gave their files. Each is one safe file name
 * on every system that unpacks it, and no two collide:
 *   - no path: `/` and `\` become `_`, and a name of only dots becomes `_`, so nothing is written outside the
 *     folder the archive is unpacked into (`../`) or into a sub-folder nobody chose;
 *   - no control, bidi or invisible format characters (which can make "gpj.exe" read as "exe.jpg"), and none
 *     of the characters Windows refuses (`<>:"|?*`); no trailing dots or spaces (Windows drops them);
 *   - no device names of Windows (CON, CONIN$, CONOUT$, PRN, AUX, NUL, COM0–9, LPT0–9, with or without an
 *     extension, spaces before it or not);
 *   - Unicode in NFC, at most 200 UTF-8 bytes with the extension kept;
 *   - duplicates, compared without case (as Windows and macOS compare), numbered: "a.jpg", "a (2).jpg".
 */
const MAX_BYTES = 200;
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff<>:"|?*]/g;
// Windows reads a name as a device by what comes before its first dot, spaces at its end dropped: "CON .jpg"
// and "con.tar.gz" are the console too. COM0 and LPT0 are reserved as well, and so are the console's two halves.
const DEVICE = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³]) *(\..*)?$/i;

function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

/** Shortens `stem` (whole characters) until stem + ext fits in MAX_BYTES. */
function fit(stem: string, ext: string): string {
  let chars = [...stem];
  while (chars.length > 1 && utf8Length(chars.join('') + ext) > MAX_BYTES) chars = chars.slice(0, -1);
  // Cut short, a name must not end in a dot or a space either.
  const out = chars.join('');
  return ext ? out + ext : out.replace(/[. ]+$/, '') || '_';
}

function split(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  // A leading dot is part of the name (".profile"); an extension is short and has no spaces.
  if (dot <= 0 || name.length - dot > 16 || /\s/.test(name.slice(dot))) return [name, ''];
  return [name.slice(0, dot), name.slice(dot)];
}

/** One filename as a safe entry name (without making it unique). */
export function safeZipName(filename: string): string {
  let name = filename.normalize('NFC').replace(/[/\\]/g, '_').replace(UNSAFE, '_');
  name = name.replace(/[. ]+$/, '').trim();
  if (name === '' || /^\.+$/.test(name)) name = '_';
  if (DEVICE.test(name)) name = `_${name}`;
  const [stem, ext] = split(name);
  return fit(stem, ext.length >= MAX_BYTES ? '' : ext);
}

/** Entry names for `filenames`, in order: each safe, and none equal to another regardless of case. */
export function uniqueZipNames(filenames: readonly string[]): string[] {
  const taken = new Set<string>();
  return filenames.map((filename) => {
    const safe = safeZipName(filename);
    let name = safe;
    const [stem, ext] = split(safe);
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = fit(stem, ` (${n})${ext}`);
    taken.add(name.toLowerCase());
    return name;
  });
}
