import { useId, useState, type FormEvent } from 'react';
import type { AlbumInput } from '../../domain/inputs';
import { limits } from '../../config';
import { albumDescription, albumTitle, firstIssue } from '../../lib/validation';
import { Dialog } from '../../ui/dialog';
import { ErrorLine } from '../../ui/error-panel';
import { useActionError } from '../../ui/use-action-error';

/**
 * Create or edit an album's title and description, with the rules of PRODUCT.md §5 checked as the user types.
 * A failed save keeps the typed text.
 */
export function AlbumFormDialog({ open, onClose, title, submitLabel, initial, onSubmit }: {
  open: boolean;
  onClose: () => void;
  title: string;
  submitLabel: string;
  initial?: AlbumInput;
  onSubmit: (input: AlbumInput) => Promise<unknown>;
}) {
  // While saving, the dialog stays open: closing it then would lose the typed text and hide a failure.
  const [busy, setBusy] = useState(false);
  const close = () => !busy && onClose();
  return (
    <Dialog open={open} onClose={close} title={title}>
      <AlbumForm submitLabel={submitLabel} initial={initial} onCancel={close} onSubmit={onSubmit} onBusyChange={setBusy} />
    </Dialog>
  );
}

function AlbumForm({ submitLabel, initial, onCancel, onSubmit, onBusyChange }: {
  submitLabel: string;
  initial?: AlbumInput;
  onCancel: () => void;
  onSubmit: (input: AlbumInput) => Promise<unknown>;
  onBusyChange: (busy: boolean) => void;
}) {
  const id = useId();
  const [titleText, setTitle] = useState(initial?.title ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const { error, attempt } = useActionError();
  const titleIssue = firstIssue(albumTitle, titleText);
  const descriptionIssue = firstIssue(albumDescription, description);
  const invalid = !!titleIssue || !!descriptionIssue;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (invalid || busy) return;
    setBusy(true);
    onBusyChange(true);
    await attempt(() => onSubmit({ title: titleText, description }));
    setBusy(false);
    onBusyChange(false);
  };

  return (
    <form onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-title`}>Title</label>
        <input
          id={`${id}-title`}
          name="title"
          autoFocus
          autoComplete="off"
          value={titleText}
          onChange={(e) => {
            setTitle(e.target.value);
            setTouched(true);
          }}
          aria-invalid={touched && !!titleIssue}
          aria-describedby={`${id}-title-msg`}
        />
        <span id={`${id}-title-msg`} className={touched && titleIssue ? 'error-line' : 'field__count'} role={touched && titleIssue ? 'alert' : undefined}>
          {touched && titleIssue ? titleIssue : `${titleText.trim().length} / ${limits().titleMax}`}
        </span>
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>Description <span className="muted">(optional)</span></label>
        <textarea
          id={`${id}-description`}
          name="description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          aria-invalid={!!descriptionIssue}
          aria-describedby={`${id}-description-msg`}
        />
        <span id={`${id}-description-msg`} className={descriptionIssue ? 'error-line' : 'field__count'} role={descriptionIssue ? 'alert' : undefined}>
          {descriptionIssue ?? `${description.length} / ${limits().descriptionMax}`}
        </span>
      </div>
      {error !== null && <ErrorLine error={error} />}
      <div className="dialog__actions">
        <button type="button" className="btn" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn--primary" disabled={busy || (touched && invalid)}>
          {busy ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
