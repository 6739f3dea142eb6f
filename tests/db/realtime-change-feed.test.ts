/**
 * The Realtime emulator's change feed (tests/db/wire/realtime-changes.ts) hands on each committed change once,
 * in commit order, as Realtime's WAL stream does: past the ids' change from one digit to two (an order by the
 * ids as text put 10 before 8 and then sent 10 again), and for a change that commits after one with a higher
 * id (two transactions at once), which a cursor on ids would skip. Broadcasts from the database
 * (realtime.messages) go through the same feed as row changes, so they are what is counted here.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startDb, type Harness } from './db-harness';
import { ChangeFeed } from './wire/realtime-changes';

let db: Harness;
let feed: ChangeFeed;
const heard: string[] = [];

beforeAll(async () => {
  db = await startDb();
  feed = await ChangeFeed.start(
    db,
    async () => undefined,
    (message) => heard.push(String((message.payload as { n?: unknown }).n)),
  );
}, 300_000);
afterAll(async () => {
  await feed?.close();
  await db?.close();
});
beforeEach(() => void heard.splice(0));

const SEND = `insert into realtime.messages (topic, extension, payload, event, private) values ('album:feed', 'broadcast', jsonb_build_object('n', $1::text), 'change', true)`;

/** Everything committed so far has been read and handed on. */
const caughtUp = () => feed.kick();

test('twelve changes committed together are handed on once each, in order, across ids that gain a digit', async () => {
  // Whatever ran before: the next ids go from one number of digits to the next (5 to 16, or 95 to 106, …),
  // where their order as text (10, 11, …, 16, 5, 6, …) is not their order.
  const [before] = await db.query<{ id: string }>('select coalesce(max(id), 0)::text as id from realtime_emulator.changes');
  const power = 10 ** String(Number(before!.id) + 6).length;
  await db.query(`select setval('realtime_emulator.changes_id_seq', $1::bigint)`, [power - 6]);
  await db.query(
    `insert into realtime.messages (topic, extension, payload, event, private)
     select 'album:feed', 'broadcast', jsonb_build_object('n', n::text), 'change', true from generate_series(1, 12) n`,
  );
  await caughtUp();
  await caughtUp();
  expect(heard).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12']);

  await db.query(SEND, ['13']);
  await caughtUp();
  expect(heard.slice(12)).toEqual(['13']);
});

test('a change that commits after a change with a higher id is handed on once, after it', async () => {
  if (db.session) {
    // Two connections: the first writes its change (the lower id) and commits only after the second did.
    const first = await db.session();
    try {
      await first.query('begin');
      await first.query(SEND, ['earlier id, later commit']);
      await db.query(SEND, ['later id, earlier commit']);
      await caughtUp();
      expect(heard).toEqual(['later id, earlier commit']);
      await first.query('commit');
    } finally {
      await first.close();
    }
  } else {
    // PGlite has one connection: the first transaction's id is taken, as its trigger would, and its row is
    // written after the second committed.
    const [reserved] = await db.query<{ id: string }>(`select nextval('realtime_emulator.changes_id_seq')::text as id`);
    await db.query(SEND, ['later id, earlier commit']);
    await caughtUp();
    expect(heard).toEqual(['later id, earlier commit']);
    await db.query(
      `insert into realtime_emulator.changes (id, schema_name, table_name, op, new_row, commit_timestamp)
       values ($1::bigint, 'realtime', 'messages', 'INSERT',
               jsonb_build_object('topic', 'album:feed', 'extension', 'broadcast', 'event', 'change', 'private', true,
                                  'payload', jsonb_build_object('n', 'earlier id, later commit')), '2026-11-21T00:00:00.000Z')`,
      [reserved!.id],
    );
  }
  await caughtUp();
  await caughtUp();
  expect(heard).toEqual(['later id, earlier commit', 'earlier id, later commit']);
});

test('a change rolled back is never handed on, and those after it are', async () => {
  await db.exec(`begin; ${SEND.replace('$1::text', `'rolled back'`)}; rollback`);
  await db.query(SEND, ['kept']);
  await caughtUp();
  expect(heard).toEqual(['kept']);
});
