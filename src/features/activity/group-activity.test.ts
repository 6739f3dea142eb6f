import { describe, expect, it } from 'vitest';
import type { Activity } from '../../domain/entities';
import { activityParts, activitySentence } from './activity-text';
import { groupActivity, GROUP_WINDOW_MS } from './group-activity';

const T0 = Date.parse('2026-03-10T12:00:00Z');
let seq = 0;
/** A line `minutesAgo` before T0; Ana adding one item to Lisbon unless told otherwise. */
function line(minutesAgo: number, patch: Partial<Activity> = {}): Activity {
  return {
    id: `a${++seq}`,
    albumId: 'lisbon',
    albumTitle: 'Lisbon',
    actorId: 'ana',
    actorName: 'Ana',
    verb: 'added_items',
    subjectId: null,
    subjectKind: null,
    count: 1,
    createdAt: new Date(T0 - minutesAgo * 60_000).toISOString(),
    ...patch,
  };
}
const sentences = (lines: Activity[]) => groupActivity(lines).map(activitySentence);

describe('groupActivity', () => {
  it('merges adjacent lines by the same person, verb and album, adding their counts', () => {
    const entries = groupActivity([line(0, { count: 5 }), line(12, { count: 7 }), line(40, { count: 2 })]);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ count: 14, createdAt: new Date(T0).toISOString(), key: expect.stringMatching(/^a/) });
    expect(activitySentence(entries[0]!)).toBe('Ana added 14 items to Lisbon');
  });

  it('keeps apart other people, other verbs, other albums, and lines too far apart', () => {
    const lines = [
      line(0, { count: 3 }),
      line(1, { actorId: 'ben', actorName: 'Ben' }),
      line(2, { count: 2 }),
      line(3, { albumId: 'porto', albumTitle: 'Porto' }),
      line(4, { verb: 'joined' }),
      line(5 + GROUP_WINDOW_MS / 60_000 + 1, { count: 4 }),
    ];
    expect(sentences(lines)).toEqual([
      'Ana added 3 items to Lisbon',
      'Ben added an item to Lisbon',
      'Ana added 2 items to Lisbon',
      'Ana added an item to Porto',
      'Ana joined Lisbon',
      'Ana added 4 items to Lisbon',
    ]);
  });

  it('the window is between neighbours: a steady upload over an hour stays one entry', () => {
    expect(groupActivity([0, 20, 40, 60, 80].map((m) => line(m, { count: 10 })))).toHaveLength(1);
  });

  it('additions say photos, videos or files while every line names that one kind, and items otherwise', () => {
    const photos = { subjectKind: 'image' as const };
    expect(sentences([line(0, { ...photos, subjectId: 'i1', count: 12 })])).toEqual(['Ana added 12 photos to Lisbon']);
    expect(sentences([line(0, { subjectId: 'v1', subjectKind: 'video' })])).toEqual(['Ana added a video to Lisbon']);
    expect(sentences([line(0, { ...photos, subjectId: 'i1', count: 3 }), line(5, { ...photos, subjectId: 'i2', count: 2 })])).toEqual(['Ana added 5 photos to Lisbon']);
    // A line that mixed kinds (or an older one) names none, and so neither does the entry it joins.
    expect(sentences([line(0, { ...photos, subjectId: 'i1', count: 3 }), line(5, { subjectId: 'i2', count: 2 })])).toEqual(['Ana added 5 items to Lisbon']);
    expect(sentences([line(0, { ...photos, subjectId: 'i1' }), line(5, { subjectId: 'f1', subjectKind: 'file' })])).toEqual(['Ana added 2 items to Lisbon']);
  });

  it('never merges lines of people who are gone, who may be different people', () => {
    const gone = { actorId: '', actorName: null };
    expect(sentences([line(0, gone), line(1, gone)])).toEqual(['Someone who left added an item to Lisbon', 'Someone who left added an item to Lisbon']);
  });
});

describe('activity wording and links', () => {
  it('a comment on one item links to that item, named by its kind', () => {
    const [entry] = groupActivity([line(0, { verb: 'commented', subjectId: 'i1', subjectKind: 'image', count: 3, actorName: 'Ben', actorId: 'ben' })]);
    expect(activityParts(entry!)).toEqual(['commented on ', { text: 'a photo', href: '/albums/lisbon/items/i1' }, ' in ', { text: 'Lisbon', href: '/albums/lisbon' }]);
    expect(activitySentence(entry!)).toBe('Ben commented on a photo in Lisbon');
    const [video] = groupActivity([line(0, { verb: 'commented', subjectId: 'v1', subjectKind: 'video' })]);
    expect(activitySentence(video!)).toBe('Ana commented on a video in Lisbon');
    const [gone] = groupActivity([line(0, { verb: 'commented', subjectId: 'x1', subjectKind: null })]);
    expect(activitySentence(gone!)).toBe('Ana commented on an item in Lisbon');
  });

  it('comments on several items are one entry that counts the items and links to the album', () => {
    const c = (m: number, id: string, kind: 'image' | 'video') => line(m, { verb: 'commented', subjectId: id, subjectKind: kind });
    const [photos] = groupActivity([c(0, 'i1', 'image'), c(3, 'i2', 'image'), c(5, 'i1', 'image')]);
    expect(activityParts(photos!)).toEqual(['commented on 2 photos in ', { text: 'Lisbon', href: '/albums/lisbon' }]);
    const [mixed] = groupActivity([c(0, 'i1', 'image'), c(3, 'v1', 'video')]);
    expect(activitySentence(mixed!)).toBe('Ana commented on 2 items in Lisbon');
  });

  it('says every verb, a former member as "Someone who left"', () => {
    const say = (patch: Partial<Activity>) => activitySentence(groupActivity([line(0, patch)])[0]!);
    expect(say({ verb: 'created_album' })).toBe('Ana created Lisbon');
    expect(say({ verb: 'trashed_items', count: 3 })).toBe('Ana moved 3 items to the trash in Lisbon');
    expect(say({ verb: 'restored_items', count: 1 })).toBe('Ana restored an item in Lisbon');
    expect(say({ verb: 'left', actorName: null })).toBe('Someone left Lisbon');
    expect(say({ verb: 'removed_member', subjectId: 'u2' })).toBe('Ana removed a member from Lisbon');
    expect(say({ verb: 'changed_role', subjectId: 'u2' })).toBe('Ana changed a member’s role in Lisbon');
    expect(say({ verb: 'transferred_ownership', subjectId: 'u2' })).toBe('Ana handed over Lisbon');
    expect(say({ count: 1200 })).toBe(`Ana added ${(1200).toLocaleString()} items to Lisbon`);
    const roles = groupActivity([line(0, { verb: 'changed_role', subjectId: 'u2' }), line(1, { verb: 'changed_role', subjectId: 'u3' })]);
    expect(roles.map(activitySentence)).toEqual(['Ana changed 2 members’ roles in Lisbon']);
  });

  it('a title that looks like markup is only text in a part', () => {
    const [entry] = groupActivity([line(0, { albumTitle: '<img src=x onerror=alert(1)>' })]);
    expect(activityParts(entry!)[1]).toEqual({ text: '<img src=x onerror=alert(1)>', href: '/albums/lisbon' });
  });
});
