/** The local database's stores as older versions of the app made them, for the tests of its upgrades. */

/** Version 2's stores and indexes; its `items` store. */
export function version2Stores(db: IDBDatabase): IDBObjectStore {
  db.createObjectStore('albums', { keyPath: 'id' }).createIndex('updated', ['updatedAt', 'id']);
  const items = db.createObjectStore('items', { keyPath: ['albumId', 'id'] });
  items.createIndex('taken', ['albumId', 'lb', 'kind', 'st', 'id']);
  items.createIndex('added', ['albumId', 'lb', 'kind', 'sa', 'id']);
  items.createIndex('deleted', 'deletedAt');
  db.createObjectStore('counts', { keyPath: ['albumId', 'lb', 'sort', 'month', 'kind'] });
  const activity = db.createObjectStore('activity', { keyPath: 'id' });
  activity.createIndex('created', ['createdAt', 'id']);
  activity.createIndex('burst', ['albumId', 'actorId', 'verb', 'createdAt']);
  activity.createIndex('album', 'albumId');
  db.createObjectStore('meta');
  db.createObjectStore('comments', { keyPath: 'id' }).createIndex('item', ['albumId', 'itemId', 'createdAt', 'id']);
  db.createObjectStore('favorites', { keyPath: ['albumId', 'itemId', 'userId'] });
  return items;
}

/** Version 3's: version 2's, the search words' index and the upgrade jobs. */
export function version3Stores(db: IDBDatabase): void {
  version2Stores(db).createIndex('words', 'w', { multiEntry: true });
  db.createObjectStore('jobs');
}
