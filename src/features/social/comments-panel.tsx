import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useSession } from '../../backend/backend-context';
import type { Album, Comment } from '../../domain/entities';
import { limits } from '../../config';
import { formatDateTime, formatNumber } from '../../lib/format';
import { commentBody, firstIssue } from '../../lib/validation';
import { ErrorLine, ErrorPanel } from '../../ui/error-panel';
import { can } from '../../lib/album-permissions';
import { CommentText } from './comment-text';
import { formatRelativeTime } from '../../lib/relative-time';
import { useAddComment, useComments, useDeleteComment, useEditComment } from './use-social';

/** The instant check of a comment, as the backend will refuse it; null when fine. */
function problem(text: string): string | null {
  return firstIssue(commentBody, text);
}

/** Ctrl+Enter or Cmd+Enter sends, as in most comment boxes; plain Enter is a new line. */
function sendsOnEnter(e: KeyboardEvent<HTMLTextAreaElement>): boolean {
  return e.key === 'Enter' && (e.ctrlKey || e.metaKey);
}

/** An item's conversation in the viewer: the comments, oldest first, and a box to add one. */
export function CommentsPanel({ album, itemId }: { album: Album; itemId: string }) {
  const comments = useComments(album.id, itemId);
  const count = comments.data?.length;
  return (
    <aside className="viewer__details comments" aria-label="Comments" data-testid="comments-panel">
      <h2 className="comments__title">Comments{count ? <span className="muted"> · {formatNumber(count)}</span> : null}</h2>
      {comments.isPending ? (
        <p aria-busy="true" className="muted">Loading comments…</p>
      ) : comments.isError ? (
        <ErrorPanel error={comments.error} onRetry={() => void comments.refetch()} />
      ) : comments.data.length === 0 ? (
        <p className="muted comments__empty">No comments yet.</p>
      ) : (
        <ol className="comments__list">
          {comments.data.map((c) => (
            <CommentRow key={c.id} album={album} comment={c} />
          ))}
        </ol>
      )}
      {can(album.role, 'comment') && <AddComment albumId={album.id} itemId={itemId} />}
    </aside>
  );
}

function CommentRow({ album, comment }: { album: Album; comment: Comment }) {
  const session = useSession();
  const own = !!session && comment.authorId === session.userId;
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteComment(album.id);
  const mayEdit = can(album.role, 'editComment', { own });
  const mayDelete = can(album.role, 'deleteComment', { own });
  return (
    <li className="comment" data-comment-id={comment.id}>
      <div className="comment__head">
        <strong className="comment__author">{comment.authorName || 'Someone'}</strong>
        <time dateTime={comment.createdAt} title={formatDateTime(comment.createdAt)} className="muted">
          {formatRelativeTime(comment.createdAt)}
        </time>
        {comment.editedAt && (
          <span className="muted" title={`Edited ${formatDateTime(comment.editedAt)}`}>
            · edited
          </span>
        )}
      </div>
      {editing ? (
        <EditComment albumId={album.id} comment={comment} done={() => setEditing(false)} />
      ) : (
        <CommentText body={comment.body} />
      )}
      {!editing && (mayEdit || mayDelete) && (
        <div className="comment__actions">
          {confirming ? (
            <>
              <span>Delete this comment?</span>
              <button type="button" className="btn btn--small btn--danger" disabled={remove.isPending} onClick={() => remove.mutate(comment.id, { onSuccess: () => setConfirming(false) })}>
                Delete
              </button>
              <button type="button" className="btn btn--small" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </>
          ) : (
            <>
              {mayEdit && (
                <button type="button" className="btn btn--small btn--ghost" onClick={() => setEditing(true)}>
                  Edit
                </button>
              )}
              {mayDelete && (
                <button type="button" className="btn btn--small btn--ghost" onClick={() => setConfirming(true)}>
                  Delete
                </button>
              )}
            </>
          )}
        </div>
      )}
      {remove.isError && <ErrorLine error={remove.error} />}
    </li>
  );
}

function CommentBox({ id, value, onChange, onSubmit, label, invalid, describedBy }: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  onSubmit: () => void;
  label: string;
  invalid: boolean;
  describedBy: string | undefined;
}) {
  const max = limits().commentMax;
  const length = [...value].length;
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <textarea
        id={id}
        className="comment__input"
        rows={2}
        value={value}
        placeholder={label}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (!sendsOnEnter(e)) return;
          e.preventDefault();
          onSubmit();
        }}
      />
      {length > max - 200 && (
        <span className="field__count" aria-live="polite">
          {formatNumber(length)} / {formatNumber(max)}
        </span>
      )}
    </>
  );
}

function AddComment({ albumId, itemId }: { albumId: string; itemId: string }) {
  const id = useId();
  const [text, setText] = useState('');
  const [issue, setIssue] = useState<string | null>(null);
  const add = useAddComment(albumId, itemId);
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (add.isPending) return;
    const found = problem(text);
    setIssue(found);
    if (found) return;
    // The typed text stays until the backend has it: a failure leaves it in the box with the reason.
    add.mutate(text, { onSuccess: () => setText('') });
  };
  return (
    <form className="comment__form" onSubmit={submit} aria-label="Add a comment">
      <CommentBox
        id={id}
        label="Add a comment"
        value={text}
        onChange={(v) => {
          setText(v);
          if (issue) setIssue(problem(v));
        }}
        onSubmit={submit}
        invalid={issue !== null}
        describedBy={issue || add.isError ? `${id}-error` : undefined}
      />
      <div id={`${id}-error`}>
        {issue ? <p className="error-line" role="alert">{issue}</p> : add.isError ? <ErrorLine error={add.error} /> : null}
      </div>
      <button type="submit" className="btn btn--primary" disabled={add.isPending || text.trim() === ''}>
        {add.isPending ? 'Sending…' : 'Send'}
      </button>
    </form>
  );
}

function EditComment({ albumId, comment, done }: { albumId: string; comment: Comment; done: () => void }) {
  const id = useId();
  const [text, setText] = useState(comment.body);
  const [issue, setIssue] = useState<string | null>(null);
  const edit = useEditComment(albumId);
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (edit.isPending) return;
    const found = problem(text);
    setIssue(found);
    if (found) return;
    edit.mutate({ id: comment.id, body: text }, { onSuccess: done });
  };
  return (
    <form className="comment__form" onSubmit={submit} aria-label="Edit comment">
      <CommentBox
        id={id}
        label="Edit comment"
        value={text}
        onChange={setText}
        onSubmit={submit}
        invalid={issue !== null}
        describedBy={issue || edit.isError ? `${id}-error` : undefined}
      />
      <div id={`${id}-error`}>
        {issue ? <p className="error-line" role="alert">{issue}</p> : edit.isError ? <ErrorLine error={edit.error} /> : null}
      </div>
      <div className="comment__actions">
        <button type="submit" className="btn btn--primary btn--small" disabled={edit.isPending}>
          Save
        </button>
        <button type="button" className="btn btn--small" onClick={done}>
          Cancel
        </button>
      </div>
    </form>
  );
}
