/**
 * "Ana is adding 12 photos": what others are uploading to the open album, from their progress messages. A
 * person's line goes a few seconds after their last message, or soon after the message that says they are
 * done; the items themselves reach the grid through their own events as each finishes.
 */
import { useEffect, useState } from 'react';
import { useBackend, useSession } from '../../backend/backend-context';
import type { BroadcastMessage } from '../../backend/ports';
import { formatNumber } from '../../lib/format';
import type { UploadProgressPayload } from './upload-progress-broadcast';

/** Without a word for this long, an uploader is taken to have stopped (closed the tab, lost the network). */
export const SILENT_MS = 6_000;
/** A finished batch stays this long, at 100 %, so the line does not blink away. */
const DONE_MS = 1_500;

/** What an uploader tells the album's channel, and who they are. */
export interface OtherUpload extends UploadProgressPayload {
  userId: string;
}

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null);

/** A progress message as an upload line, or null when it is not one (anyone on the channel can send). */
export function toOtherUpload(msg: BroadcastMessage): OtherUpload | null {
  const p = msg.payload;
  const files = count(p.files);
  const done = count(p.done);
  const bytesTotal = count(p.bytesTotal);
  const bytesSent = count(p.bytesSent);
  if (files === null || done === null || bytesTotal === null || bytesSent === null || files === 0) return null;
  const name = typeof p.displayName === 'string' && p.displayName.trim() ? p.displayName.trim().slice(0, 60) : 'Someone';
  return { userId: msg.userId, displayName: name, files, done: Math.min(done, files), bytesTotal, bytesSent: Math.min(bytesSent, bytesTotal), photos: p.photos === true };
}

export function useOthersUploading(albumId: string): OtherUpload[] {
  const { realtime } = useBackend();
  const selfId = useSession()?.userId;
  const [uploads, setUploads] = useState<Map<string, OtherUpload>>(new Map());
  useEffect(() => {
    const timers = new Map<string, ReturnType<typeof setTimeout>>();
    const drop = (userId: string) => {
      timers.delete(userId);
      setUploads((m) => {
        const next = new Map(m);
        next.delete(userId);
        return next;
      });
    };
    const unsubscribe = realtime.subscribe(albumId, {
      onBroadcast: (msg) => {
        if (msg.type !== 'upload-progress' || msg.userId === selfId) return;
        const upload = toOtherUpload(msg);
        if (!upload) return;
        setUploads((m) => new Map(m).set(upload.userId, upload));
        const timer = timers.get(upload.userId);
        if (timer) clearTimeout(timer);
        timers.set(upload.userId, setTimeout(() => drop(upload.userId), upload.done >= upload.files ? DONE_MS : SILENT_MS));
      },
    });
    return () => {
      unsubscribe();
      for (const t of timers.values()) clearTimeout(t);
      setUploads(new Map());
    };
  }, [realtime, albumId, selfId]);
  return [...uploads.values()];
}

/** One line per person adding to the album, each with its progress bar. */
export function OthersUploading({ albumId }: { albumId: string }) {
  const uploads = useOthersUploading(albumId);
  if (uploads.length === 0) return null;
  return (
    <ul className="others-uploading" aria-label="Others adding to this album">
      {uploads.map((u) => {
        const noun = u.photos ? (u.files === 1 ? 'photo' : 'photos') : u.files === 1 ? 'file' : 'files';
        const percent = u.bytesTotal > 0 ? Math.round((u.bytesSent / u.bytesTotal) * 100) : Math.round((u.done / u.files) * 100);
        const label = `${u.displayName} is adding ${formatNumber(u.files)} ${noun}`;
        return (
          <li key={u.userId} className="others-uploading__line">
            <span>
              {label}
              <span className="muted"> · {formatNumber(u.done)} of {formatNumber(u.files)} done</span>
            </span>
            <div className="progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
              <span style={{ width: `${percent}%` }} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
