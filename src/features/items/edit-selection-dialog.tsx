import { useId, useState, type FormEvent } from 'react';
import type { Item } from '../../domain/entities';
import type { ItemEdit } from '../../domain/inputs';
import { COLOR_LABELS } from '../../lib/item-edit';
import { formatCount } from '../../lib/format';
import { Dialog } from '../../ui/dialog';
import { ErrorLine } from '../../ui/error-panel';
import { useActionError } from '../../ui/use-action-error';

type DateChoice = 'keep' | 'shift' | 'set';

/** "sea, Lisbon , tram" → the keywords, once each. */
export function keywordList(text: string): string[] {
  return [...new Set(text.split(',').map((k) => k.trim()).filter(Boolean))];
}

/** Milliseconds of a shift given in days, hours and minutes, later (+) or earlier (−). */
export function shiftMs(sign: 1 | -1, days: number, hours: number, minutes: number): number {
  return sign * Math.round(((days * 24 + hours) * 60 + minutes) * 60_000);
}

/**
 * Edits a selection's details at once: rating, colour label, keywords added or removed (each item keeps its
 * others), and the date taken shifted (a camera clock set wrong: every photo by the same amount) or set. What is
 * left as "Leave as is" does not change. The dialog stays open, with what was typed, when the save fails.
 */
export function EditSelectionDialog({ open, items, onClose, onEdit }: {
  open: boolean;
  /** The selected items the person may edit. */
  items: Item[];
  onClose: () => void;
  onEdit: (edit: ItemEdit, done: string) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={open} onClose={() => !busy && onClose()} title={`Edit ${formatCount(items.length, 'item', 'items')}`}>
      <EditSelectionForm count={items.length} onCancel={() => !busy && onClose()} onBusyChange={setBusy} onEdit={onEdit} />
    </Dialog>
  );
}

function EditSelectionForm({ count, onCancel, onBusyChange, onEdit }: {
  count: number;
  onCancel: () => void;
  onBusyChange: (busy: boolean) => void;
  onEdit: (edit: ItemEdit, done: string) => Promise<void>;
}) {
  const id = useId();
  const [rating, setRating] = useState('keep');
  const [label, setLabel] = useState('keep');
  const [add, setAdd] = useState('');
  const [remove, setRemove] = useState('');
  const [dateChoice, setDateChoice] = useState<DateChoice>('keep');
  const [sign, setSign] = useState<1 | -1>(1);
  const [days, setDays] = useState('0');
  const [hours, setHours] = useState('0');
  const [minutes, setMinutes] = useState('0');
  const [date, setDate] = useState('');
  const [busy, setBusy] = useState(false);
  const { error, attempt } = useActionError();

  const edit: ItemEdit = {};
  if (rating !== 'keep') edit.rating = Number(rating);
  if (label !== 'keep') edit.label = label || null;
  if (keywordList(add).length) edit.addKeywords = keywordList(add);
  if (keywordList(remove).length) edit.removeKeywords = keywordList(remove);
  const shift = shiftMs(sign, Number(days) || 0, Number(hours) || 0, Number(minutes) || 0);
  if (dateChoice === 'shift' && shift !== 0) edit.shiftTakenAtMs = shift;
  if (dateChoice === 'set' && date && !Number.isNaN(new Date(date).getTime())) edit.takenAt = new Date(date).toISOString();
  const nothing = Object.keys(edit).length === 0;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (nothing || busy) return;
    setBusy(true);
    onBusyChange(true);
    await attempt(() => onEdit(edit, `${formatCount(count, 'item', 'items')} edited`));
    setBusy(false);
    onBusyChange(false);
  };

  const number = (value: string, set: (v: string) => void, name: string, max: number) => (
    <label className="shift__part">
      <input type="number" inputMode="numeric" min={0} max={max} value={value} onChange={(e) => set(e.target.value)} aria-label={name} />
      <span>{name}</span>
    </label>
  );

  return (
    <form onSubmit={submit} noValidate className="edit-selection">
      <div className="field">
        <label htmlFor={`${id}-rating`}>Rating</label>
        <select id={`${id}-rating`} value={rating} onChange={(e) => setRating(e.target.value)}>
          <option value="keep">Leave as is</option>
          <option value="0">No rating</option>
          {[1, 2, 3, 4, 5].map((n) => (
            <option key={n} value={String(n)}>{`${'★'.repeat(n)} (${n})`}</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-label`}>Label</label>
        <select id={`${id}-label`} value={label} onChange={(e) => setLabel(e.target.value)}>
          <option value="keep">Leave as is</option>
          <option value="">None</option>
          {COLOR_LABELS.map((l) => (
            <option key={l} value={l}>{l}</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-add`}>Add keywords</label>
        <input id={`${id}-add`} autoComplete="off" value={add} onChange={(e) => setAdd(e.target.value)} placeholder="beach, family" aria-describedby={`${id}-kw-hint`} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-remove`}>Remove keywords</label>
        <input id={`${id}-remove`} autoComplete="off" value={remove} onChange={(e) => setRemove(e.target.value)} aria-describedby={`${id}-kw-hint`} />
        <span id={`${id}-kw-hint`} className="field__hint">Separate keywords with commas. Each item keeps its other keywords.</span>
      </div>
      <fieldset className="field edit-selection__date">
        <legend>Date taken</legend>
        <label><input type="radio" name={`${id}-date`} checked={dateChoice === 'keep'} onChange={() => setDateChoice('keep')} /> Leave as is</label>
        <label><input type="radio" name={`${id}-date`} checked={dateChoice === 'shift'} onChange={() => setDateChoice('shift')} /> Shift by</label>
        {dateChoice === 'shift' && (
          <div className="shift">
            <select aria-label="Direction" value={String(sign)} onChange={(e) => setSign(e.target.value === '-1' ? -1 : 1)}>
              <option value="1">Later</option>
              <option value="-1">Earlier</option>
            </select>
            {number(days, setDays, 'days', 36_500)}
            {number(hours, setHours, 'hours', 23)}
            {number(minutes, setMinutes, 'minutes', 59)}
            <span className="field__hint">Every photo moves by the same amount; photos with no date stay without one.</span>
          </div>
        )}
        <label><input type="radio" name={`${id}-date`} checked={dateChoice === 'set'} onChange={() => setDateChoice('set')} /> Set to</label>
        {dateChoice === 'set' && <input type="datetime-local" step={1} aria-label="New date taken" value={date} onChange={(e) => setDate(e.target.value)} />}
      </fieldset>
      {error !== null && <ErrorLine error={error} />}
      <div className="dialog__actions">
        <button type="button" className="btn" onClick={onCancel} disabled={busy}>Cancel</button>
        <button type="submit" className="btn btn--primary" disabled={nothing || busy}>{busy ? 'Saving…' : 'Apply'}</button>
      </div>
    </form>
  );
}
