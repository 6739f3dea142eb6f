import { describe, expect, it } from 'vitest';
import { exifDateTaken } from './exif-date';

const at = (value: unknown, offset?: unknown, subSeconds?: unknown) => exifDateTaken(value, offset, subSeconds)?.at ?? null;

describe('exifDateTaken', () => {
  it('turns a camera date with its offset into the UTC instant, and keeps the offset', () => {
    expect(exifDateTaken('2023:07:14 18:30:05', '+02:00')).toEqual({ at: '2023-07-14T16:30:05.000Z', offsetMinutes: 120 });
    expect(exifDateTaken('2023:12:31 22:00:00', '-05:00')).toEqual({ at: '2024-01-01T03:00:00.000Z', offsetMinutes: -300 });
    expect(exifDateTaken('2023:12:31 22:00:00', '+05:45')).toEqual({ at: '2023-12-31T16:15:00.000Z', offsetMinutes: 345 });
  });

  it('keeps the wall clock of a date without an offset, so the day and month stay those the camera showed', () => {
    expect(exifDateTaken('2023:07:14 23:30:05')).toEqual({ at: '2023-07-14T23:30:05.000Z', offsetMinutes: null });
  });

  it('takes no offset from one that cannot be a clock’s, and keeps the wall clock then', () => {
    expect(exifDateTaken('2023:07:14 23:30:05', '+15:00')).toEqual({ at: '2023-07-14T23:30:05.000Z', offsetMinutes: null });
    expect(exifDateTaken('2023:07:14 23:30:05', '+01:75')).toEqual({ at: '2023-07-14T23:30:05.000Z', offsetMinutes: null });
    expect(exifDateTaken('2023:07:14 23:30:05', '   ')).toEqual({ at: '2023-07-14T23:30:05.000Z', offsetMinutes: null });
  });

  it('adds sub-seconds, whether separate or inline', () => {
    expect(at('2023:07:14 18:30:05', '+00:00', '25')).toBe('2023-07-14T18:30:05.250Z');
    expect(exifDateTaken('2023-07-14T18:30:05.5+01:00')).toEqual({ at: '2023-07-14T17:30:05.500Z', offsetMinutes: 60 });
  });

  it('reads XMP dates, which are ISO 8601, with or without time and zone', () => {
    // A bare Z says when, not what the clock read where it was taken.
    expect(exifDateTaken('2021-03-04T05:06:07Z')).toEqual({ at: '2021-03-04T05:06:07.000Z', offsetMinutes: null });
    expect(exifDateTaken('2021-03-04T05:06:07+00:00')).toEqual({ at: '2021-03-04T05:06:07.000Z', offsetMinutes: 0 });
    expect(exifDateTaken('2021-03-04')).toEqual({ at: '2021-03-04T00:00:00.000Z', offsetMinutes: null });
  });

  it('refuses unset clocks, impossible dates and non-dates', () => {
    expect(at('0000:00:00 00:00:00')).toBeNull();
    expect(at('2023:02:31 10:00:00')).toBeNull();
    expect(at('2023:07:14 25:00:00')).toBeNull();
    expect(at('yesterday')).toBeNull();
    expect(at(undefined)).toBeNull();
    expect(at(20230714)).toBeNull();
  });
});
