/**
 * Gives the item rows stored before search words existed their words ([Note: Local item indexes] in local-db.ts),
 * after the database has opened: a chunk of rows per transaction, the place reached kept in `jobs`, so a reload
 * goes on where it stopped and the app stays usable meanwhile. A search waits for it (local-search.ts).
 */
import { SEARCH_WORDS_JOB, WRITE_STORES, type ItemRecord, type LocalDb } from './local-db';
import { searchEntries } from './local-list-fields';

const CHUNK = 500;
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

async function fill(db: LocalDb): Promise<void> {
  for (;;) {
    const idb = await db.get();
    // The same stores as every write, so a chunk queues with the app's writes instead of racing them.
    const tx = idb.transaction([...WRITE_STORES, 'jobs'], 'readwrite');
    const jobs = tx.objectStore('jobs');
    const job = await jobs.get(SEARCH_WORDS_JOB);
    if (!job) {
      await tx.done;
      return;
    }
    const items = tx.objectStore('items');
    const rows: ItemRecord[] = await items.getAll(job.after ? IDBKeyRange.lowerBound(job.after, true) : null, CHUNK);
    // Rows written since the upgrade already have their words (withListFields): only the others are rewritten.
    for (const row of rows) if (row.lb === 'a' && !row.w) void items.put({ ...row, w: searchEntries(row, row.st) });
    const last = rows[rows.length - 1];
    if (rows.length < CHUNK || !last) void jobs.delete(SEARCH_WORDS_JOB);
    else void jobs.put({ after: [last.albumId, last.id] }, SEARCH_WORDS_JOB);
    await tx.done;
  }
}
