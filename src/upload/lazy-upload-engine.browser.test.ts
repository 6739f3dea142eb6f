import { afterEach, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../backend/local/create-local-backend';
import { allSettled, disposeEngines, gatedProcess, newEngine, readyItems, setup, textFile, until } from '../testing/engine-test-kit';
import { LazyUploadEngine } from './lazy-upload-engine';

const lazies: LazyUploadEngine[] = [];
afterEach(() => {
  for (const e of lazies.splice(0)) e.dispose();
  disposeEngines();
});

function newLazy(...args: ConstructorParameters<typeof LazyUploadEngine>): LazyUploadEngine {
  const e = new LazyUploadEngine(...args);
  lazies.push(e);
  return e;
}

describe('LazyUploadEngine: the queue whose code loads when there is work', () => {
  it('a start finds the uploads a closed page left unfinished and completes them, with no file added', async () => {
    const { n, backend, album } = await setup();
    const gate = gatedProcess();
    const closed = newEngine({ backend, dbName: n.queueDb, process: gate.process });
    const views = await closed.enqueue(album.id, [textFile('a.txt', 'a'), textFile('b.txt', 'b')]);
    await until(closed, (q) => q.tasks.some((t) => t.state === 'processing'));
    closed.dispose();

    const reopened = createLocalBackend(n.backend);
    const page = newLazy({ backend: reopened, dbName: n.queueDb });
    expect(page.getSnapshot().tasks).toEqual([]);
    await page.start();
    const s = await until(page, allSettled);
    expect(s.tasks.map((t) => [t.filename, t.state])).toEqual([
      ['a.txt', 'done'],
      ['b.txt', 'done'],
    ]);
    expect((await readyItems(reopened, album.id)).map((i) => i.id).sort()).toEqual(views.map((v) => v.id).sort());
  });

  it('a page started with an empty queue shows the files another tab adds, as they upload', async () => {
    const { n, backend, album } = await setup();
    const lockName = `${n.queueDb}:lock`;
    const page = newLazy({ backend, dbName: n.queueDb, lockName });
    await page.start();
    expect(page.getSnapshot().totals.filesTotal).toBe(0);

    const gate = gatedProcess();
    const otherTab = newEngine({ backend: createLocalBackend(n.backend), dbName: n.queueDb, lockName, process: gate.process });
    await otherTab.enqueue(album.id, [textFile('from-the-other-tab.txt', 'hello')]);
    await until(page, (q) => q.tasks.some((t) => t.filename === 'from-the-other-tab.txt' && t.state === 'processing'));
    expect(page.getSnapshot().totals.running).toBe(true);
    gate.open();
    const s = await until(page, allSettled);
    expect(s.tasks.map((t) => [t.filename, t.state])).toEqual([['from-the-other-tab.txt', 'done']]);
  });

  it('files added to a page whose queue was empty upload', async () => {
    const { n, backend, album } = await setup();
    const page = newLazy({ backend, dbName: n.queueDb });
    await page.start();
    const views = await page.enqueue(album.id, [textFile('notes.txt', 'Bring sunscreen.')]);
    expect(views.map((v) => v.filename)).toEqual(['notes.txt']);
    await until(page, allSettled);
    expect(page.getSnapshot().tasks.map((t) => t.state)).toEqual(['done']);
    expect(page.isRunner).toBe(true);
    expect((await readyItems(backend, album.id)).map((i) => i.id)).toEqual(views.map((v) => v.id));
  });
});
