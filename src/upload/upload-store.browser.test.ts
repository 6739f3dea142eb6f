import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { createTask } from './upload-task';
import { UploadStore } from './upload-store';

const dbName = () => `upload-store-${crypto.randomUUID()}`;

describe('The upload queue database', () => {
  it('a queue written before the share inbox existed keeps its tasks and files when opened by this version', async () => {
    const name = dbName();
    const task = createTask({ id: 't1', albumId: 'a1', filename: 'beach.jpg', bytes: 5, declaredType: 'image/jpeg', lastModified: 0, createdAt: new Date().toISOString(), order: 0 });
    // Version 1, as the app wrote it before: tasks and blobs only.
    const v1 = await openDB(name, 1, {
      upgrade(d) {
        d.createObjectStore('tasks', { keyPath: 'id' });
        d.createObjectStore('blobs');
      },
    });
    await v1.put('tasks', task);
    await v1.put('blobs', new Blob(['bytes']), ['t1', 'source']);
    v1.close();

    const store = await UploadStore.open(name);
    expect(await store.loadAll()).toEqual([task]);
    expect(await (await store.getBlob('t1', 'source'))?.text()).toBe('bytes');
    // And the inbox is there for shared files.
    const file = new File(['a photo'], 'shared.jpg', { type: 'image/jpeg', lastModified: 1234 });
    await store.putShare({ id: 's1', createdAt: new Date().toISOString(), files: [file], title: '', text: '', url: '' });
    store.close();

    const again = await UploadStore.open(name);
    const share = await again.getShare('s1');
    expect(share?.files.map((f) => [f.name, f.type, f.size, f.lastModified])).toEqual([['shared.jpg', 'image/jpeg', 7, 1234]]);
    expect(await share?.files[0]?.text()).toBe('a photo');
    await again.deleteShare('s1');
    expect(await again.getShare('s1')).toBeUndefined();
    expect(await again.loadAll()).toEqual([task]);
    again.close();
  });

  it('a share handed over to the queue leaves the inbox with it, and handed over again adds nothing', async () => {
    const name = dbName();
    const store = await UploadStore.open(name);
    const files = [new File(['one'], 'a.jpg', { type: 'image/jpeg' }), new File(['two'], 'b.jpg', { type: 'image/jpeg' })];
    const share = { id: 's1', createdAt: new Date().toISOString(), files, fileIds: ['f1', 'f2'], title: '', text: '', url: '' };
    await store.putShare(share);
    const entries = () =>
      files.map((f, order) => ({
        task: createTask({ id: share.fileIds[order]!, albumId: 'a1', filename: f.name, bytes: f.size, declaredType: f.type, lastModified: 0, createdAt: share.createdAt, order }),
        source: f as Blob,
      }));
    expect(await store.addShareBatch('s1', entries())).toEqual(['f1', 'f2']);
    expect(await store.getShare('s1')).toBeUndefined();
    expect((await store.loadAll()).map((t) => t.id).sort()).toEqual(['f1', 'f2']);
    expect(await (await store.getBlob('f2', 'source'))?.text()).toBe('two');

    // Gone from the inbox: a second hand-over (another tab, a second click) adds nothing.
    expect(await store.addShareBatch('s1', entries())).toBeNull();
    // Back in the inbox while its tasks are queued (as a hand-over in two steps, cut between them, left it):
    // it leaves the inbox and no task is added twice.
    await store.putShare(share);
    expect(await store.addShareBatch('s1', entries())).toEqual([]);
    expect(await store.getShare('s1')).toBeUndefined();
    expect((await store.loadAll()).map((t) => t.id).sort()).toEqual(['f1', 'f2']);
    store.close();
  });

  it('a share in the device\u2019s inbox handed over to an account\u2019s queue lands in that queue alone, and handed over again adds nothing', async () => {
    const inbox = await UploadStore.open(dbName());
    const queue = await UploadStore.open(dbName());
    const files = [new File(['one'], 'a.jpg', { type: 'image/jpeg' })];
    const share = { id: 's1', createdAt: new Date().toISOString(), files, fileIds: ['f1'], title: '', text: '', url: '' };
    await inbox.putShare(share);
    const entries = () => [{ task: createTask({ id: 'f1', albumId: 'a1', filename: 'a.jpg', bytes: 3, declaredType: 'image/jpeg', lastModified: 0, createdAt: share.createdAt, order: 0 }), source: files[0] as Blob }];

    expect(await queue.addShareBatch('s1', entries(), inbox)).toEqual(['f1']);
    expect(await inbox.getShare('s1')).toBeUndefined();
    expect(await inbox.loadAll()).toEqual([]);
    expect((await queue.loadAll()).map((t) => t.id)).toEqual(['f1']);
    expect(await (await queue.getBlob('f1', 'source'))?.text()).toBe('one');
    expect(await queue.addShareBatch('s1', entries(), inbox)).toBeNull();
    // Cut between its two steps, the share waits again with its file queued: handed over again, it only leaves.
    await inbox.putShare(share);
    expect(await queue.addShareBatch('s1', entries(), inbox)).toEqual([]);
    expect(await inbox.getShare('s1')).toBeUndefined();
    expect((await queue.loadAll()).map((t) => t.id)).toEqual(['f1']);
    inbox.close();
    queue.close();
  });

  it('the shares received until a moment are deleted, those received after it stay', async () => {
    const inbox = await UploadStore.open(dbName());
    const at = (iso: string, id: string) => inbox.putShare({ id, createdAt: iso, files: [], title: '', text: '', url: '' });
    await at('2026-11-20T10:00:00.000Z', 'before');
    await at('2026-11-20T12:00:00.000Z', 'at');
    await at('2026-11-20T12:00:00.001Z', 'after');
    await inbox.deleteSharesUntil('2026-11-20T12:00:00.000Z');
    expect((await inbox.listShares()).map((s) => s.id)).toEqual(['after']);
    inbox.close();
  });

  it('the queue an older version kept moves to another database with its files, once, without overwriting what is there', async () => {
    const older = await UploadStore.open(dbName());
    const own = await UploadStore.open(dbName());
    const task = (id: string) => createTask({ id, albumId: 'a1', filename: `${id}.jpg`, bytes: 5, declaredType: 'image/jpeg', lastModified: 0, createdAt: new Date().toISOString(), order: 0 });
    await older.addBatch([{ task: task('t1'), source: new Blob(['older']) }, { task: task('t2'), source: new Blob(['two']) }]);
    // t2 was moved before, and has gone on since: the copy there stays as it is.
    await own.addBatch([{ task: { ...task('t2'), state: 'paused' }, source: new Blob(['two, kept']) }]);

    expect((await older.moveTasksTo(own)).sort()).toEqual(['t1', 't2']);
    expect(await older.loadAll()).toEqual([]);
    expect(await older.getBlob('t1', 'source')).toBeUndefined();
    expect((await own.loadAll()).map((t) => [t.id, t.state]).sort()).toEqual([
      ['t1', 'queued'],
      ['t2', 'paused'],
    ]);
    expect(await (await own.getBlob('t1', 'source'))?.text()).toBe('older');
    expect(await (await own.getBlob('t2', 'source'))?.text()).toBe('two, kept');
    expect(await older.moveTasksTo(own)).toEqual([]);
    older.close();
    own.close();
  });
});
