/**
 * Guest uploads on a share link's page: the guest gives a name, adds files (through the same upload engine
 * as members, with a queue of its own), follows their progress, and sees and deletes "Your uploads".
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, useSyncExternalStore, type FormEvent } from 'react';
import { useAlbumBackend } from '../../backend/backend-context';
import { createGuestUploadBackend, joinShareAsGuest } from '../../backend/create-backend';
import { AppError } from '../../lib/app-error';
import { describeError, GUEST_LIMIT_REACHED } from '../../lib/error-messages';
import { formatBytes, safeFilename } from '../../lib/format';
import { BLANK_ONLY } from '../../lib/validation';
import { ErrorLine } from '../../ui/error-panel';
import { UploadEngine, type UploadTaskView } from '../../upload/upload-engine';
import { DropZone } from '../uploads/drop-zone';
import { keepsPlace, LocationChoice, type LocationChoiceActions } from '../uploads/location-choice';
import { forgetGuest, readGuest, writeGuest, type StoredGuest } from './guest-token';
import { useActionError } from '../../ui/use-action-error';

export interface GuestUploadsProps {
  /** The share link's token (from the address): the guest token is kept per link. */
  token: string;
  /** The visit token share-open gave. */
  visit: string;
  link: { guestMaxFiles: number | null; guestMaxBytes: number | null };
  /** A file of this guest's arrived in the album or left it (the page shows the album again). */
  onChanged?: () => void;
}

export function GuestUploads({ token, visit, link, onChanged }: GuestUploadsProps) {
  const [guest, setGuest] = useState<StoredGuest | null>(() => readGuest(token));
  return (
    <section className="card guest-uploads" aria-labelledby="guest-uploads-title">
      <h2 id="guest-uploads-title">Add your photos</h2>
      <Limits link={link} />
      {guest ? (
        <GuestUploader
          token={token}
          visit={visit}
          guest={guest}
          onChanged={onChanged}
          onForgotten={() => {
            forgetGuest(token);
            setGuest(null);
          }}
        />
      ) : (
        <NameForm
          visit={visit}
          onJoined={(g) => {
            writeGuest(token, g);
            setGuest(g);
          }}
        />
      )}
    </section>
  );
}

function Limits({ link }: Pick<GuestUploadsProps, 'link'>) {
  const parts = [
    link.guestMaxFiles !== null ? `up to ${link.guestMaxFiles.toLocaleString('en')} file${link.guestMaxFiles === 1 ? '' : 's'}` : null,
    link.guestMaxBytes !== null ? `up to ${formatBytes(link.guestMaxBytes)}` : null,
  ].filter(Boolean);
  return parts.length ? <p className="muted">Each guest can add {parts.join(' and ')}.</p> : null;
}

function NameForm({ visit, onJoined }: { visit: string; onJoined: (g: StoredGuest) => void }) {
  const id = useId();
  const backend = useAlbumBackend();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const { error, attempt } = useActionError();
  // A name of spaces or fillers only shows nothing: it is no name ([Note: Blank-looking text]).
  const given = name.trim() !== '' && !BLANK_ONLY.test(name.trim());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy || !given) return;
    setBusy(true);
    void attempt(async () => {
      const answer = await joinShareAsGuest(backend.functions, visit, name.trim());
      onJoined({ guest: answer.guest, name: answer.name, albumId: answer.albumId });
    }).finally(() => setBusy(false));
  };
  return (
    <form className="guest-name" onSubmit={submit} aria-label="Join as a guest">
      <div className="field">
        <label htmlFor={`${id}-name`}>Your name</label>
        <input id={`${id}-name`} name="name" autoComplete="name" maxLength={60} value={name} onChange={(e) => setName(e.target.value)} required />
        <span className="field__hint">Shown with the photos you add, as “{name.trim() || 'Ana'} (guest)”.</span>
      </div>
      {error !== null && <ErrorLine error={error} />}
      <button type="submit" className="btn btn--primary" disabled={busy || !given}>
        {busy ? 'One moment…' : 'Continue'}
      </button>
    </form>
  );
}

/** The guest's own upload engine and backend, made once per guest and given back on unmount. */
function useGuestEngine(token: string, visit: string, guest: StoredGuest) {
  const backend = useAlbumBackend();
  const [made, setMade] = useState<{ engine: UploadEngine; mine: Awaited<ReturnType<typeof createGuestUploadBackend>>['guest'] } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let engine: UploadEngine | null = null;
    let gone = false;
    createGuestUploadBackend({ functions: backend.functions, visit, guest: guest.guest })
      .then((guestBackend) => {
        if (gone) return;
        engine = new UploadEngine({ backend: guestBackend, dbName: `shoebox-guest-uploads:${token}`, keepThumbnails: false });
        void engine.start();
        setMade({ engine, mine: guestBackend.guest });
      })
      .catch((e: unknown) => !gone && setError(e));
    return () => {
      gone = true;
      engine?.dispose();
    };
  }, [backend.functions, token, visit, guest.guest]);
  return { made, error };
}

const NO_QUEUE = () => () => undefined;

function GuestUploader({ token, visit, guest, onChanged, onForgotten }: { token: string; visit: string; guest: StoredGuest; onChanged: (() => void) | undefined; onForgotten: () => void }) {
  const { made, error } = useGuestEngine(token, visit, guest);
  const qc = useQueryClient();
  const queryKey = ['share-guest-uploads', token, guest.guest];
  const snapshot = useSyncExternalStore(made?.engine.subscribe ?? NO_QUEUE, () => made?.engine.getSnapshot() ?? null);
  const mine = useQuery({ queryKey, queryFn: ({ signal }) => made!.mine.mine({ signal }), enabled: !!made });
  const filesDone = snapshot?.totals.filesDone ?? 0;
  useEffect(() => {
    if (filesDone === 0) return;
    // A finished upload is listed under "Your uploads" from the server: its record in this browser's queue is
    // no longer needed, and would otherwise stay in IndexedDB for good (a guest has no uploads screen to clear it).
    void qc.invalidateQueries({ queryKey }).then(() => made?.engine.clearFinished());
    onChanged?.();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key is made of these
  }, [filesDone, qc, token, guest.guest]);
  const unknownGuest = mine.error instanceof AppError && mine.error.details?.field === 'guest';
  useEffect(() => {
    if (unknownGuest) onForgotten();
  }, [unknownGuest, onForgotten]);

  const add = (files: File[]) => {
    if (made && files.length) void made.engine.enqueue(guest.albumId, files);
  };
  const [deleting, setDeleting] = useState<Set<string>>(new Set());
  const { error: deleteError, attempt: attemptDelete } = useActionError();
  const remove = (id: string) => {
    if (!made) return;
    setDeleting((s) => new Set(s).add(id));
    void attemptDelete(async () => {
      await made.mine.remove([id]);
      onChanged?.();
      await qc.invalidateQueries({ queryKey });
    }).finally(() => setDeleting((s) => {
        const next = new Set(s);
        next.delete(id);
        return next;
      }));
  };

  if (error) return <ErrorLine error={error} />;
  const active = snapshot?.tasks.filter((t) => t.state !== 'done') ?? [];
  const ready = mine.data?.items ?? [];
  return (
    <>
      <p className="muted">
        Adding as <strong>{guest.name}</strong>.
      </p>
      <DropZone onFiles={add} />
      <label className="btn btn--primary guest-uploads__add">
        Add photos and videos
        <input
          data-testid="add-files-input"
          className="visually-hidden"
          type="file"
          multiple
          disabled={!made}
          onChange={(e) => {
            const files = Array.from(e.currentTarget.files ?? []);
            e.currentTarget.value = '';
            add(files);
          }}
        />
      </label>
      {active.length > 0 && (
        <ul className="guest-uploads__queue" aria-label="Uploading">
          {active.map((t) => (
            <QueueRow key={t.id} task={t} engine={made?.engine} onRetry={() => void made?.engine.retry(t.id)} onRemove={() => void made?.engine.remove(t.id)} />
          ))}
        </ul>
      )}
      <h3>Your uploads</h3>
      {mine.isPending ? (
        <p className="muted" aria-busy="true">Loading your uploads…</p>
      ) : mine.error && !unknownGuest ? (
        <ErrorLine error={mine.error} />
      ) : ready.length === 0 ? (
        <p className="muted" data-testid="guest-uploads-empty">Nothing yet. The photos you add appear here, and you can delete them at any time.</p>
      ) : (
        <ul className="guest-uploads__mine" data-testid="guest-uploads-mine">
          {ready.map((item) => (
            <li key={item.id} className="guest-uploads__item">
              {item.thumbUrl ? <img src={item.thumbUrl} alt="" width={64} height={64} /> : <span className="guest-uploads__thumb" aria-hidden="true" />}
              <span className="guest-uploads__name">{safeFilename(item.filename)}</span>
              <span className="muted">{item.status === 'ready' ? formatBytes(item.bytes) : 'Uploading…'}</span>
              <button type="button" className="btn btn--ghost" disabled={deleting.has(item.id)} onClick={() => remove(item.id)} aria-label={`Delete ${safeFilename(item.filename)}`}>
                {deleting.has(item.id) ? 'Deleting…' : 'Delete'}
              </button>
            </li>
          ))}
        </ul>
      )}
      {deleteError !== null && <ErrorLine error={deleteError} />}
      {mine.data?.limits && (mine.data.limits.maxFiles !== null || mine.data.limits.maxBytes !== null) && (
        <p className="muted" data-testid="guest-uploads-used">
          You have added {mine.data.limits.usedFiles.toLocaleString('en')} file{mine.data.limits.usedFiles === 1 ? '' : 's'} ({formatBytes(mine.data.limits.usedBytes)}).
        </p>
      )}
    </>
  );
}

function QueueRow({ task, engine, onRetry, onRemove }: { task: UploadTaskView; engine: LocationChoiceActions | undefined; onRetry: () => void; onRemove: () => void }) {
  if (engine && keepsPlace(task)) {
    return (
      <li className="guest-uploads__task" data-state={task.state}>
        <span className="guest-uploads__name">{safeFilename(task.filename)}</span>
        <LocationChoice task={task} actions={engine} />
      </li>
    );
  }
  const pct = task.bytes > 0 ? Math.min(100, (task.bytesDone / task.bytes) * 100) : 0;
  const failed = task.state === 'failed' || task.state === 'canceled';
  const error = task.error ? AppError.fromJSON(task.error) : null;
  const duplicate = error?.details?.rule === 'duplicate';
  return (
    <li className="guest-uploads__task" data-state={task.state}>
      <span className="guest-uploads__name">{safeFilename(task.filename)}</span>
      {failed && error ? (
        error.code === 'upload/quota-exceeded' ? (
          <p className="error-line" role="alert">{GUEST_LIMIT_REACHED.title} {GUEST_LIMIT_REACHED.action}</p>
        ) : (
          <span className={duplicate ? 'muted' : undefined}>{duplicate ? describeError(error)?.fieldText : <ErrorLine error={error} />}</span>
        )
      ) : (
        <div className="progress" role="progressbar" aria-label={`Uploading ${safeFilename(task.filename)}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(pct)}>
          <span style={{ width: `${pct}%` }} />
        </div>
      )}
      {failed && !duplicate && error?.retryable && (
        <button type="button" className="btn" onClick={onRetry}>
          Try again
        </button>
      )}
      {failed && (
        <button type="button" className="btn btn--ghost" onClick={onRemove} aria-label={`Dismiss ${safeFilename(task.filename)}`}>
          Dismiss
        </button>
      )}
    </li>
  );
}
