import { describe, expect, it } from 'vitest';
import { exifDateToIso } from './exif-date';

describe('exifDateToIso', () => {
  it('turns a camera date with its offset into the UTC instant', () => {
    expect(exifDateToIso('2023:07:14 18:30:05', '+02:00')).toBe('2023-07-14T16:30:05.000Z');
    expect(exifDateToIso('2023:12:31 22:00:00', '-05:00')).toBe('2024-01-01T03:00:00.000Z');
  });

  it('keeps the wall clock of a date without an offset, so the day and month stay those the camera showed', () => {
    expect(exifDateToIso('2023:07:14 23:30:05')).toBe('2023-07-14T23:30:05.000Z');
  });

  it('adds sub-seconds, whether separate or inline', () => {
    expect(exifDateToIso('2023:07:14 18:30:05', '+00:00', '25')).toBe('2023-07-14T18:30:05.250Z');
    expect(exifDateToIso('2023-07-14T18:30:05.5+01:00')).toBe('2023-07-14T17:30:05.500Z');
  });

  it('reads XMP dates, which are ISO 8601, with or without time', () => {
    expect(exifDateToIso('2021-03-04T05:06:07Z')).toBe('2021-03-04T05:06:07.000Z');
    expect(exifDateToIso('2021-03-04')).toBe('2021-03-04T00:00:00.000Z');
  });

  it('refuses unset clocks, impossible dates and non-dates', () => {
    expect(exifDateToIso('0000:00:00 00:00:00')).toBeNull();
    expect(exifDateToIso('2023:02:31 10:00:00')).toBeNull();
    expect(exifDateToIso('2023:07:14 25:00:00')).toBeNull();
    expect(exifDateToIso('yesterday')).toBeNull();
    expect(exifDateToIso(undefined)).toBeNull();
    expect(exifDateToIso(20230714)).toBeNull();
  });
});
