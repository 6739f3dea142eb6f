/**
 * Keeps album counters and per-month counts in step with item rows. Every write of an item row records
 * its before/after state here and `flush` applies the sum in the same transaction, so the counters can
 * never drift from the rows (see [Note: Local item indexes] in local-db.ts).
 */
import type { AlbumRecord, CountKey, ItemRecord, WriteTx } from './local-db';
import { monthOf } from './local-item-record';

interface AlbumDelta {
  itemCount: number;
  bytesTotal: number;
  heldCount: number;
}

export class ItemLedger {
  private readonly counts = new Map<string, { key: CountKey; delta: number }>();
  private readonly albums = new Map<string, AlbumDelta>();

  /** Records one row change: `before` null for an insert, `after` null for a delete. */
  record(before: ItemRecord | null, after: ItemRecord | null): void {
    if (before) this.add(before, -1);
    if (after) this.add(after, 1);
  }

  /** Whether the album's visible content changed (what bumps its `updatedAt`). */
  changedVisible(albumId: string): boolean {
    const d = this.albums.get(albumId);
    return !!d && (d.itemCount !== 0 || d.bytesTotal !== 0);
  }

  private add(r: ItemRecord, sign: 1 | -1): void {
    let album = this.albums.get(r.albumId);
    if (!album) {
      album = { itemCount: 0, bytesTotal: 0, heldCount: 0 };
      this.albums.set(r.albumId, album);
    }
    if (r.status !== 'failed') album.heldCount += sign;
    if (r.status === 'ready' && !r.deletedAt) {
      album.itemCount += sign;
      album.bytesTotal += sign * r.bytes;
    }
    if (!r.lb) return;
    this.bump([r.albumId, r.lb, 'taken', monthOf(r.st), r.kind], sign);
    this.bump([r.albumId, r.lb, 'added', monthOf(r.sa), r.kind], sign);
  }

  private bump(key: CountKey, delta: number): void {
    const id = key.join('\u0000');
    const entry = this.counts.get(id);
    if (entry) entry.delta += delta;
    else this.counts.set(id, { key, delta });
  }

  /**
   * Writes the sums. `touchedAt`: the time to set as `updatedAt` on albums whose visible content
   * changed (null to leave it). Returns the album rows as written.
   */
  async flush(tx: WriteTx, touchedAt: string | null): Promise<AlbumRecord[]> {
    const counts = tx.objectStore('counts');
    const changes = [...this.counts.values()].filter((c) => c.delta !== 0);
    const current = await Promise.all(changes.map((c) => counts.get(c.key)));
    await Promise.all(
      changes.map((c, i) => {
        const n = (current[i]?.n ?? 0) + c.delta;
        if (n <= 0) return counts.delete(c.key);
        const [albumId, lb, sort, month, kind] = c.key;
        return counts.put({ albumId, lb, sort, month, kind, n });
      }),
    );

    const albums = tx.objectStore('albums');
    const written: AlbumRecord[] = [];
    for (const [albumId, d] of this.albums) {
      const album = await albums.get(albumId);
      if (!album) continue;
      const next: AlbumRecord = {
        ...album,
        itemCount: Math.max(0, album.itemCount + d.itemCount),
        bytesTotal: Math.max(0, album.bytesTotal + d.bytesTotal),
        heldCount: Math.max(0, album.heldCount + d.heldCount),
      };
      if (touchedAt && this.changedVisible(albumId)) next.updatedAt = touchedAt;
      await albums.put(next);
      written.push(next);
    }
    this.counts.clear();
    this.albums.clear();
    return written;
  }
}
