/**
 * Tells the others looking at an album that this person is adding to it: per album, how many files this
 * batch holds, how many are done and the bytes sent, at most twice a second, and a last message when the
 * batch is over. Only the tab that runs the queue speaks, and only for albums where the person may add.
 */
import type { BroadcastMessage, RealtimePort } from '../../backend/ports';
import type { QueueSnapshot, UploadTaskView } from '../../upload/upload-engine';

/** At most this often per album: ≤ 2 messages a second per uploader. */
export const PROGRESS_INTERVAL_MS = 500;

export interface UploadProgressPayload {
  displayName: string;
  files: number;
  done: number;
  bytesTotal: number;
  bytesSent: number;
  /** Every file is an image ("photos" rather than "files"). */
  photos: boolean;
}

interface Batch {
  ids: Set<string>;
  lastSent: number;
  timer: ReturnType<typeof setTimeout> | null;
  lastKey: string;
}

export interface ProgressSource {
  subscribe(cb: () => void): () => void;
  getSnapshot(): QueueSnapshot;
  readonly isRunner: boolean;
}

const unfinished = (t: UploadTaskView) => t.state !== 'done' && t.state !== 'canceled' && t.state !== 'failed';

export function broadcastUploadProgress(
  engine: ProgressSource,
  realtime: RealtimePort,
  who: () => { userId: string; displayName: string } | null,
  mayAdd: (albumId: string) => boolean,
): () => void {
  const batches = new Map<string, Batch>();
  const payloadOf = (batch: Batch, tasks: Map<string, UploadTaskView>, name: string): UploadProgressPayload => {
    const views = [...batch.ids].map((id) => tasks.get(id)).filter((t): t is UploadTaskView => !!t && t.state !== 'canceled');
    return {
      displayName: name,
      files: views.length,
      done: views.filter((t) => t.state === 'done').length,
      bytesTotal: views.reduce((n, t) => n + t.bytes, 0),
      bytesSent: views.reduce((n, t) => n + (t.state === 'done' ? t.bytes : Math.min(t.bytesDone, t.bytes)), 0),
      photos: views.every((t) => t.kind === 'image'),
    };
  };
  const send = (albumId: string, final: boolean) => {
    const batch = batches.get(albumId);
    const me = who();
    if (!batch || !me) return;
    batch.timer = null;
    const tasks = new Map(engine.getSnapshot().tasks.map((t) => [t.id, t]));
    const payload = payloadOf(batch, tasks, me.displayName);
    const key = JSON.stringify(payload);
    if (final) batches.delete(albumId);
    if (key === batch.lastKey && !final) return;
    batch.lastKey = key;
    batch.lastSent = Date.now();
    if (!mayAdd(albumId) || payload.files === 0) return;
    const msg: BroadcastMessage = { type: 'upload-progress', userId: me.userId, payload: { ...payload } };
    realtime.broadcast(albumId, msg);
  };
  const schedule = (albumId: string, batch: Batch, final: boolean) => {
    if (batch.timer) clearTimeout(batch.timer);
    const wait = Math.max(0, batch.lastSent + PROGRESS_INTERVAL_MS - Date.now());
    batch.timer = setTimeout(() => send(albumId, final), wait);
  };
  const onChange = () => {
    if (!engine.isRunner) return;
    const byAlbum = new Map<string, UploadTaskView[]>();
    for (const t of engine.getSnapshot().tasks) {
      const list = byAlbum.get(t.albumId) ?? [];
      list.push(t);
      byAlbum.set(t.albumId, list);
    }
    for (const [albumId, tasks] of byAlbum) {
      const open = tasks.filter(unfinished);
      let batch = batches.get(albumId);
      if (!batch) {
        if (open.length === 0) continue;
        batch = { ids: new Set(), lastSent: 0, timer: null, lastKey: '' };
        batches.set(albumId, batch);
      }
      for (const t of open) batch.ids.add(t.id);
      const over = [...batch.ids].every((id) => {
        const t = tasks.find((x) => x.id === id);
        return !t || !unfinished(t);
      });
      if (over || !batch.timer) schedule(albumId, batch, over);
    }
    // A batch whose tasks were all removed from the queue is over too.
    for (const [albumId, batch] of batches) if (!byAlbum.has(albumId)) schedule(albumId, batch, true);
  };
  const unsubscribe = engine.subscribe(onChange);
  return () => {
    unsubscribe();
    for (const batch of batches.values()) if (batch.timer) clearTimeout(batch.timer);
    batches.clear();
  };
}
