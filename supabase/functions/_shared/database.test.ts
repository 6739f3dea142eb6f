/**
 * [Note: Transactions run again] on a real Postgres: two transactions that take two rows in opposite orders
 * deadlock, Postgres ends one, and `transaction` runs that one again, so both commit.
 */
import assert from 'node:assert/strict';
import { transaction } from './database.ts';
import { ownerSql, test } from './test-world.ts';

test('two transactions that deadlock both commit: the one Postgres ends is run again', async () => {
  const sql = ownerSql();
  const table = sql(`deadlock_${crypto.randomUUID().replaceAll('-', '')}`);
  await sql`create table ${table} (id int primary key, n int not null)`;
  try {
    await sql`insert into ${table} values (1, 0), (2, 0)`;
    let firstHolds!: () => void;
    let secondHolds!: () => void;
    const firstHeld = new Promise<void>((resolve) => (firstHolds = resolve));
    const secondHeld = new Promise<void>((resolve) => (secondHolds = resolve));
    const attempts = [0, 0];
    // The first takes row 1 then row 2, the second row 2 then row 1; on their first attempt each waits until the
    // other holds its first row, so they deadlock whichever Postgres ends.
    const take = (who: 0 | 1, rows: [number, number], add: number, holds: () => void, otherHeld: Promise<void>) =>
      transaction(sql, async (tx) => {
        attempts[who]!++;
        await tx`update ${table} set n = n + ${add} where id = ${rows[0]}`;
        if (attempts[who] === 1) {
          holds();
          await otherHeld;
        }
        await tx`update ${table} set n = n + ${add} where id = ${rows[1]}`;
      });
    await Promise.all([take(0, [1, 2], 1, firstHolds, secondHeld), take(1, [2, 1], 10, secondHolds, firstHeld)]);
    assert.equal(attempts[0]! + attempts[1]!, 3, `attempts: ${attempts.join(', ')}`);
    assert.deepEqual([...(await sql`select id, n from ${table} order by id`)], [
      { id: 1, n: 11 },
      { id: 2, n: 11 },
    ]);
  } finally {
    await sql`drop table ${table}`;
    await sql.end();
  }
});

test('a transaction that fails otherwise is not run again', async () => {
  const sql = ownerSql();
  try {
    let attempts = 0;
    await assert.rejects(
      transaction(sql, async (tx) => {
        attempts++;
        await tx`select 1 / 0`;
      }),
      (e: { code?: string }) => e.code === '22012',
    );
    assert.equal(attempts, 1);
  } finally {
    await sql.end();
  }
});
