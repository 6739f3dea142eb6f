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
});
