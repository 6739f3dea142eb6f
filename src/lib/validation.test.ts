import { afterEach, describe, expect, it } from 'vitest';
import { overrideLimits } from '../config';
import { resetLimits } from '../testing/limits';
import { AppError } from './app-error';
import { albumDescription, albumTitle, commentBody, displayName, firstIssue, parseField, validateAlbumInput } from './validation';

afterEach(() => resetLimits());

function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected an AppError');
}

describe('album titles and display names', () => {
  it('are trimmed and accepted up to the limit, counting characters rather than UTF-16 units', () => {
    expect(albumTitle.parse('  Summer 2024 \n')).toBe('Summer 2024');
    expect(albumTitle.parse('a'.repeat(120))).toHaveLength(120);
    // 120 emoji are 240 UTF-16 units but 120 characters.
    expect(firstIssue(albumTitle, '📷'.repeat(120))).toBeNull();
    expect(firstIssue(albumTitle, '📷'.repeat(121))).toBe('The title can be at most 120 characters.');
    expect(displayName.parse('  Ada  ')).toBe('Ada');
    expect(firstIssue(displayName, 'x'.repeat(61))).toBe('The name can be at most 60 characters.');
  });

  it('refuse empty, control and text-direction characters with a sentence for the form', () => {
    expect(firstIssue(albumTitle, '   ')).toBe('The title cannot be empty.');
    expect(firstIssue(displayName, '')).toBe('The name cannot be empty.');
    expect(firstIssue(albumTitle, 'two\nlines')).toMatch(/control characters/);
    expect(firstIssue(albumTitle, 'bell\u0007')).toMatch(/control characters/);
    expect(firstIssue(albumTitle, 'del\u007f')).toMatch(/control characters/);
    expect(firstIssue(albumTitle, 'c1\u0085')).toMatch(/control characters/);
    expect(firstIssue(albumTitle, 'gpj.\u202eexe')).toMatch(/text-direction/);
    expect(firstIssue(displayName, 'x\u2066y')).toMatch(/text-direction/);
    expect(firstIssue(albumTitle, 42)).toBe('The title must be text.');
  });

  it('refuse a text that draws nothing, and line separators or the object replacement character anywhere', () => {
    for (const blank of ['\u3164', '\u2800\u2800', '\u00a0', '\u3000\u3000', '\u115f\u1160', '\uffa0']) {
      expect(firstIssue(albumTitle, blank), `U+${blank.codePointAt(0)!.toString(16)}`).toBe('The title cannot be empty.');
      expect(firstIssue(displayName, blank)).toBe('The name cannot be empty.');
    }
    for (const c of ['\u2028', '\u2029', '\ufffc']) expect(firstIssue(albumTitle, `a${c}b`)).toMatch(/control characters/);
    // Beside visible characters they are ordinary text.
    expect(firstIssue(albumTitle, 'Ana\u00a0& Bea')).toBeNull();
    expect(firstIssue(displayName, '\u3164Ana')).toBeNull();
  });

  it('follow a limit overridden at start-up', () => {
    overrideLimits({ titleMax: 5 });
    expect(firstIssue(albumTitle, 'abcde')).toBeNull();
    expect(firstIssue(albumTitle, 'abcdef')).toBe('The title can be at most 5 characters.');
  });
});

describe('album descriptions', () => {
  it('may be empty and may hold newlines and tabs but no other control characters', () => {
    expect(albumDescription.parse('')).toBe('');
    expect(albumDescription.parse(' Day one:\n\t- beach\n')).toBe('Day one:\n\t- beach');
    expect(firstIssue(albumDescription, 'a\rb')).toMatch(/control characters/);
    expect(firstIssue(albumDescription, 'a\u0000b')).toMatch(/control characters/);
    expect(firstIssue(albumDescription, 'a\u007fb')).toMatch(/control characters/);
    expect(firstIssue(albumDescription, 'x'.repeat(2000))).toBeNull();
    expect(firstIssue(albumDescription, 'x'.repeat(2001))).toBe('The description can be at most 2,000 characters.');
  });
});

describe('comments', () => {
  it('hold 1 to 2,000 characters once trimmed, line breaks allowed, and are stored trimmed', () => {
    expect(commentBody.parse('  Lovely light!\nAgain?  ')).toBe('Lovely light!\nAgain?');
    expect(firstIssue(commentBody, ' \n\t ')).toBe('A comment cannot be empty.');
    expect(firstIssue(commentBody, '🙂'.repeat(2000))).toBeNull();
    expect(firstIssue(commentBody, 'x'.repeat(2001))).toBe('A comment can be at most 2,000 characters.');
    expect(firstIssue(commentBody, 'a\u0007b')).toBe('A comment cannot contain control characters.');
    expect(firstIssue(commentBody, 'see\u202egpj.exe')).toBe('A comment cannot contain text-direction control characters.');
    expect(firstIssue(commentBody, 'a\u200bb')).toBe('A comment cannot contain invisible formatting characters.');
  });
});

describe('invisible format characters', () => {
  const invisible = ['\u202a', '\u202e', '\u2066', '\u2069', '\u200e', '\u200f', '\u061c', '\u200b', '\u2060', '\ufeff', '\u00ad', '\u{e0001}'];

  it('are refused in titles, names and descriptions, as the database refuses them', () => {
    for (const c of invisible) {
      const code = `U+${c.codePointAt(0)!.toString(16)}`;
      expect(firstIssue(albumTitle, `Trip${c}gpj.exe`), code).toMatch(/text-direction|invisible/);
      expect(firstIssue(displayName, `Al${c}ice`), code).toMatch(/text-direction|invisible/);
      expect(firstIssue(albumDescription, `Day one\n${c}the lake`), code).toMatch(/text-direction|invisible/);
    }
    expect(firstIssue(albumTitle, 'Al\u200bice')).toBe('The title cannot contain invisible formatting characters.');
    expect(firstIssue(albumDescription, 'a\u202eb')).toBe('The description cannot contain text-direction control characters.');
  });

  it('leave emoji sequences and scripts that need joiners alone', () => {
    expect(firstIssue(albumTitle, 'Family 👨‍👩‍👧')).toBeNull();
    expect(firstIssue(albumTitle, 'می‌خواهم')).toBeNull();
    expect(firstIssue(displayName, '🏴󠁧󠁢󠁳󠁣󠁴󠁿 Ailsa')).toBeNull();
  });
});

describe('validateAlbumInput', () => {
  it('returns what will be stored', () => {
    expect(validateAlbumInput({ title: ' Trip ' })).toEqual({ title: 'Trip', description: '' });
    expect(validateAlbumInput({ title: 'Trip', description: ' Rome ' })).toEqual({ title: 'Trip', description: 'Rome' });
  });

  it('throws validation/invalid naming the field that failed', () => {
    const title = thrown(() => validateAlbumInput({ title: '' }));
    expect(title.code).toBe('validation/invalid');
    expect(title.details).toEqual({ field: 'title', rule: 'empty' });
    expect(title.retryable).toBe(false);

    const description = thrown(() => validateAlbumInput({ title: 'ok', description: 'x'.repeat(2001) }));
    expect(description.details).toEqual({ field: 'description', rule: 'too-long', limit: 2000 });
  });

  it('parseField names any field it is given', () => {
    expect(parseField(displayName, ' Bo ', 'displayName')).toBe('Bo');
    expect(thrown(() => parseField(displayName, '\u202e', 'displayName')).details).toEqual({ field: 'displayName', rule: 'bidi' });
  });
});
