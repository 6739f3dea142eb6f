/**
 * The sidecar writes this device still owes ([Note: Sidecars beside originals] in sidecar-writer.ts): each edited
 * item is kept here, as it was edited, until its sidecar is written, so that a write cut off by a closed tab, a
 * lost connection or a failed request is made good later, from this device.
 */
import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Item } from '../domain/entities';

interface OutboxDb extends DBSchema {
  /** The latest edited state of each item whose sidecar is owed, by item id. */
  owed: { key: string; value: Item };
}

/** The local backend's outbox (one profile per device). */
export const SIDECAR_OUTBOX_DB = 'shoebox-sidecars';

/**
 * On a backend with accounts, each account's owed writes are kept apart ([Note: What the device keeps belongs to one
 * account]): someone else signing in on this browser never writes them.
 */
export function accountSidecarOutbox(userId: string): string {
  return `${SIDECAR_OUTBOX_DB}:${userId}`;
}

/** The same edit: what the sidecar would say is the same. */
const same = (a: Item, b: Item) => JSON.stringify(a) === JSON.stringify(b);

export class SidecarOutbox {
  private constructor(private readonly db: IDBPDatabase<OutboxDb>) {}

  static async open(name: string): Promise<SidecarOutbox> {
    const db = await openDB<OutboxDb>(name, 1, {
      upgrade(d) {
        d.createObjectStore('owed', { keyPath: 'id' });
      },
      // Another tab deleting the database (a sign-out) is not kept waiting.
      blocking: (_current, _next, event) => (event.target as IDBDatabase).close(),
    });
    return new SidecarOutbox(db);
  }

  /** Deletes an account's outbox (its owed writes are given up: see forget-device-data.ts). */
  static remove(name: string): Promise<void> {
    return deleteDB(name);
  }

  /** Keeps items whose sidecars are now owed, each in place of an earlier edit of it. */
  async keep(items: readonly Item[]): Promise<void> {
    const tx = this.db.transaction('owed', 'readwrite');
    await Promise.all([...items.map((item) => tx.store.put(item)), tx.done]);
  }

  /** Forgets `item` once its sidecar is written (or given up on), unless a later edit of it was kept since. */
  async settled(item: Item): Promise<void> {
    const tx = this.db.transaction('owed', 'readwrite');
    const kept = await tx.store.get(item.id);
    if (kept && same(kept, item)) await tx.store.delete(item.id);
    await tx.done;
  }

  /** Every item whose sidecar is owed. */
  owed(): Promise<Item[]> {
    return this.db.getAll('owed');
  }

  close(): void {
    this.db.close();
  }
}
