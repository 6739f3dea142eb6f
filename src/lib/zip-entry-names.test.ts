import { describe, expect, it } from 'vitest';
import { safeZipName, uniqueZipNames } from './zip-entry-names';

describe('safeZipName', () => {
  it('keeps an ordinary name as it is, Unicode included (in NFC)', () => {
    expect(safeZipName('IMG_2041.JPG')).toBe('IMG_2041.JPG');
    expect(safeZipName('Praça do Comércio — 2026.jpg')).toBe('Praça do Comércio — 2026.jpg');
    expect(safeZipName('Prac\u0327a.jpg')).toBe('Praça.jpg');
    expect(safeZipName('家族写真.heic')).toBe('家族写真.heic');
  });

  it('never makes a path: no separators, no parent folder, no name of dots', () => {
    expect(safeZipName('../../etc/passwd')).toBe('.._.._etc_passwd');
    expect(safeZipName('..\\..\\Windows\\win.ini')).toBe('.._.._Windows_win.ini');
    expect(safeZipName('/absolute.jpg')).toBe('_absolute.jpg');
    expect(safeZipName('..')).toBe('_');
    expect(safeZipName('.')).toBe('_');
    expect(safeZipName('')).toBe('_');
  });

  it('takes out bidi overrides, control and invisible characters, and what Windows refuses', () => {
    // "photo‮gpj.exe" would read as "photoexe.jpg".
    expect(safeZipName('photo\u202egpj.exe')).toBe('photo_gpj.exe');
    expect(safeZipName('a\u0000b\u0007c\u200bd\u2066e\ufefff.txt')).toBe('a_b_c_d_e_f.txt');
    expect(safeZipName('what? "this" <is>: a|b*.txt')).toBe('what_ _this_ _is__ a_b_.txt');
    expect(safeZipName('trailing dots... ')).toBe('trailing dots');
  });

  it('renames the device names of Windows, with or without an extension, in any case', () => {
    for (const name of ['CON', 'con.txt', 'Prn.jpg', 'aux', 'NUL.tar.gz', 'com1', 'LPT9.log']) expect(safeZipName(name)).toBe(`_${name}`);
    expect(safeZipName('CONSOLE.txt')).toBe('CONSOLE.txt');
    // What Windows also reads as devices: spaces before the extension, COM0/LPT0, and the console's halves.
    for (const name of ['CON .jpg', 'con  .txt', 'COM0.txt', 'lpt0', 'CONIN$', 'conout$.log', 'AUX .tar.gz']) expect(safeZipName(name)).toBe(`_${name}`);
    expect(safeZipName('CONINX.txt')).toBe('CONINX.txt');
    expect(safeZipName('COM10.txt')).toBe('COM10.txt');
    expect(safeZipName('com10')).toBe('com10');
  });

  it('shortens a long name to 200 UTF-8 bytes, keeping its extension and whole characters', () => {
    const long = `${'ü'.repeat(150)}.jpeg`;
    const safe = safeZipName(long);
    expect(new TextEncoder().encode(safe).length).toBeLessThanOrEqual(200);
    expect(safe.endsWith('ü.jpeg')).toBe(true);
    expect(safeZipName('x'.repeat(300))).toHaveLength(200);
  });
});

describe('uniqueZipNames', () => {
  it('numbers duplicates, compared without case, and keeps the order', () => {
    expect(uniqueZipNames(['a.jpg', 'b.jpg', 'A.JPG', 'a.jpg', 'a (2).jpg'])).toEqual(['a.jpg', 'b.jpg', 'A (2).JPG', 'a (3).jpg', 'a (2) (2).jpg']);
  });

  it('numbers names that only became equal once made safe', () => {
    expect(uniqueZipNames(['x/y.txt', 'x\\y.txt', 'x_y.txt'])).toEqual(['x_y.txt', 'x_y (2).txt', 'x_y (3).txt']);
    expect(uniqueZipNames(['..', '.', ''])).toEqual(['_', '_ (2)', '_ (3)']);
  });

  it('keeps a numbered long name within the limit', () => {
    const names = uniqueZipNames(['é'.repeat(120) + '.png', 'é'.repeat(120) + '.png']);
    expect(names[1]!.endsWith(' (2).png')).toBe(true);
    for (const n of names) expect(new TextEncoder().encode(n).length).toBeLessThanOrEqual(200);
  });
});
