import type { Activity, ActivityVerb, ItemKind } from '../../domain/entities';

/** Lines further apart than this stay separate entries even when the same person did the same thing. */
export const GROUP_WINDOW_MS = 30 * 60_000;

/** One entry of the home screen's feed: one or more adjacent lines by the same person, of one verb, in one album. */
export interface ActivityEntry {
  /** The newest line's id. */
  key: string;
  albumId: string;
  albumTitle: string;
  actorId: string;
  actorName: string | null;
  verb: ActivityVerb;
  /** The lines' counts added up (items added, comments made, …). */
  count: number;
  /** The newest line's time. */
  createdAt: string;
  /** The distinct things the lines are about, newest first (the items commented on, the members acted on). */
  subjects: { id: string; kind: ItemKind | null }[];
}

/**
 * Merges adjacent lines (the feed is newest first) by the same person, of the same verb, in the same album,
 * each within GROUP_WINDOW_MS of the next. The database already merges a person's additions within 10 minutes
 * and their comments on one item; this joins what is still side by side (comments on several photos, an
 * upload that took longer). Lines whose person is gone (no id) are never merged: they may be different people.
 */
export function groupActivity(lines: readonly Activity[], windowMs: number = GROUP_WINDOW_MS): ActivityEntry[] {
  const entries: ActivityEntry[] = [];
  let oldest = 0;
  for (const line of lines) {
    const last = entries.at(-1);
    const at = Date.parse(line.createdAt);
    if (
      last &&
      line.actorId !== '' &&
      last.actorId === line.actorId &&
      last.verb === line.verb &&
      last.albumId === line.albumId &&
      oldest - at <= windowMs
    ) {
      last.count += line.count;
      if (line.subjectId && !last.subjects.some((s) => s.id === line.subjectId)) last.subjects.push({ id: line.subjectId, kind: line.subjectKind });
      oldest = at;
      continue;
    }
    entries.push({
      key: line.id,
      albumId: line.albumId,
      albumTitle: line.albumTitle,
      actorId: line.actorId,
      actorName: line.actorName,
      verb: line.verb,
      count: line.count,
      createdAt: line.createdAt,
      subjects: line.subjectId ? [{ id: line.subjectId, kind: line.subjectKind }] : [],
    });
    oldest = at;
  }
  return entries;
}
