/**
 * Gives the item rows stored before search words existed their words ([Note: Local item indexes] in local-db.ts),
 * after the database has opened (local-row-jobs.ts). A search waits for it (local-search.ts).
 */
import { SEARCH_WORDS_JOB, type LocalDb } from './local-db';
import { searchEntries } from './local-list-fields';
import { runRowJob } from './local-row-jobs';

const running = new WeakMap<LocalDb, Promise<void>>();

/** Resolves once every listed row has its words (at once when nothing was left to do). */
export function searchWordsFilled(db: LocalDb): Promise<void> {
  let done = running.get(db);
  if (!done) {
    done = fill(db);
    running.set(db, done);
    // A failure (the tab closing the database) is tried again by the next search.
    done.catch(() => running.delete(db));
  }
  return done;
}

function fill(db: LocalDb): Promise<void> {
  return runRowJob(db, SEARCH_WORDS_JOB, (rows, tx) => {
    const items = tx.objectStore('items');
    // Rows written since the upgrade already have their words (withListFields): only the others are rewritten.
    for (const row of rows) if (row.lb === 'a' && !row.w) void items.put({ ...row, w: searchEntries(row, row.st) });
  });
}
