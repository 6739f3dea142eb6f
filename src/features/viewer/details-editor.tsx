import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import type { Item } from '../../domain/entities';
import type { ItemEdit } from '../../domain/inputs';
import { COLOR_LABELS, DESCRIPTION_MAX_CHARS, TITLE_MAX_CHARS } from '../../lib/item-edit';
import { formatTaken } from '../../lib/format';
import { ErrorLine } from '../../ui/error-panel';
import { Icon } from '../../ui/icon';
import { useEditItems } from '../items/use-item-edits';
import { useKeywordSuggestions } from '../items/use-keyword-suggestions';

const NONE: readonly string[] = [];

/**
 * `YYYY-MM-DDTHH:mm:ss`, as `<input type="datetime-local">` takes it: the clock where the photo was taken when its
 * offset is known (as the date shows: formatTaken), else this device's time zone.
 */
export function toLocalInput(iso: string | null, offset?: number): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  if (offset !== undefined) {
    const d = new Date(t + offset * 60_000);
    return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  }
  const d = new Date(t);
  return `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The instant a typed `YYYY-MM-DDTHH:mm[:ss]` means, read as toLocalInput wrote it; null when it is no date. */
export function fromLocalInput(value: string, offset?: number): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const at = offset === undefined ? new Date(y, mo - 1, d, h, mi, s) : new Date(Date.UTC(y, mo - 1, d, h, mi, s) - offset * 60_000);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** What the person is typing, kept while they type; the saved value again once they are done or it changes elsewhere. */
function useDraft(saved: string) {
  const [draft, setDraft] = useState(saved);
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) setDraft(saved);
  }, [saved, editing]);
  return { draft, setDraft, editing, setEditing };
}

/**
 * The photographer's fields of one item, editable in place (PRODUCT.md §6 "edit item metadata"): title and
 * description saved when the field is left (Escape takes the typing back), rating by stars or the keys 0–5,
 * colour label, keywords (Enter adds, with the album's keywords offered), and the date taken. Every change shows at
 * once and can be undone from its notice; one that fails keeps what was typed and says why.
 */
export function DetailsEditor({ item }: { item: Item }) {
  const edit = useEditItems(item.albumId);
  const [error, setError] = useState<unknown>(null);
  const m = item.metadata;
  // The date is shown, typed and read in the clock of the place it was taken when that is known.
  const offset = item.takenAt ? m.takenOffset : undefined;
  const title = useDraft(m.title ?? '');
  const description = useDraft(m.description ?? '');
  const [keyword, setKeyword] = useState('');
  const [dateOpen, setDateOpen] = useState(false);
  const [date, setDate] = useState('');
  const ids = { title: useId(), description: useId(), label: useId(), keyword: useId(), keywords: useId(), date: useId() };
  // Offered as the person types: the album's keywords that begin so, not those the item has.
  const offered = useKeywordSuggestions(item.albumId, keyword, m.keywords ?? NONE);

  const save = async (change: ItemEdit, done: string): Promise<boolean> => {
    setError(null);
    try {
      await edit([item], change, done);
      return true;
    } catch (e) {
      setError(e);
      return false;
    }
  };

  const saveText = async (field: 'title' | 'description', draft: ReturnType<typeof useDraft>) => {
    const value = draft.draft.trim();
    if (value === (m[field] ?? '')) {
      draft.setEditing(false);
      return;
    }
    if (await save({ [field]: value }, value ? `${field === 'title' ? 'Title' : 'Description'} saved` : `${field === 'title' ? 'Title' : 'Description'} removed`)) draft.setEditing(false);
  };
  const textKeys = (field: 'title' | 'description', draft: ReturnType<typeof useDraft>) => (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      // The typing taken back and the field left: the next Escape closes the viewer.
      e.preventDefault();
      e.stopPropagation();
      draft.setEditing(false);
      draft.setDraft(m[field] ?? '');
      (e.target as HTMLElement).blur();
    } else if (e.key === 'Enter' && (field === 'title' || e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void saveText(field, draft);
    }
  };

  const addKeyword = async () => {
    const word = keyword.trim().replace(/,$/, '').trim();
    if (!word) return;
    if (m.keywords?.includes(word)) {
      setKeyword('');
      return;
    }
    if (await save({ addKeywords: [word] }, `Keyword “${word}” added`)) setKeyword('');
  };

  const rating = m.rating ?? 0;
  return (
    <div className="details-editor">
      <label className="details-editor__label" htmlFor={ids.title}>Title</label>
      <input
        id={ids.title}
        className="input"
        value={title.draft}
        placeholder="Add a title"
        maxLength={TITLE_MAX_CHARS * 2}
        onChange={(e) => {
          title.setEditing(true);
          title.setDraft(e.target.value);
        }}
        onBlur={() => void saveText('title', title)}
        onKeyDown={textKeys('title', title)}
      />

      <label className="details-editor__label" htmlFor={ids.description}>Description</label>
      <textarea
        id={ids.description}
        className="input"
        rows={3}
        value={description.draft}
        placeholder="Add a description"
        maxLength={DESCRIPTION_MAX_CHARS * 2}
        onChange={(e) => {
          description.setEditing(true);
          description.setDraft(e.target.value);
        }}
        onBlur={() => void saveText('description', description)}
        onKeyDown={textKeys('description', description)}
      />

      <span className="details-editor__label" id={`${ids.title}-rating`}>Rating</span>
      <div className="stars" role="radiogroup" aria-labelledby={`${ids.title}-rating`}>
        {[1, 2, 3, 4, 5].map((n) => (
          <button
            key={n}
            type="button"
            role="radio"
            aria-checked={rating === n}
            aria-label={`${n} star${n === 1 ? '' : 's'}`}
            className={n <= rating ? 'stars__star stars__star--on' : 'stars__star'}
            // The rating given again takes it away, as in Lightroom and Google Photos.
            onClick={() => void save({ rating: rating === n ? 0 : n }, rating === n ? 'Rating removed' : `Rated ${n} star${n === 1 ? '' : 's'}`)}
          >
            {n <= rating ? '★' : '☆'}
          </button>
        ))}
      </div>

      <label className="details-editor__label" htmlFor={ids.label}>Label</label>
      <select
        id={ids.label}
        className="select"
        value={m.label ?? ''}
        onChange={(e) => void save({ label: e.target.value || null }, e.target.value ? `Label ${e.target.value}` : 'Label removed')}
      >
        <option value="">None</option>
        {COLOR_LABELS.map((l) => (
          <option key={l} value={l}>{l}</option>
        ))}
        {/* A label another program wrote stays choosable, as it is. */}
        {m.label && !(COLOR_LABELS as readonly string[]).includes(m.label) && <option value={m.label}>{m.label}</option>}
      </select>

      <span className="details-editor__label" id={ids.keywords}>Keywords</span>
      <div className="keywords" aria-labelledby={ids.keywords} role="group">
        {(m.keywords ?? []).map((k) => (
          <span key={k} className="chip">
            {k}
            <button type="button" className="chip__remove" aria-label={`Remove keyword ${k}`} onClick={() => void save({ removeKeywords: [k] }, `Keyword “${k}” removed`)}>
              <Icon name="close" />
            </button>
          </span>
        ))}
        <input
          id={ids.keyword}
          className="input keywords__input"
          aria-label="Add a keyword"
          placeholder="Add a keyword"
          list={`${ids.keyword}-offered`}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ',') {
              e.preventDefault();
              void addKeyword();
            } else if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              if (keyword) setKeyword('');
              else e.currentTarget.blur();
            }
          }}
        />
        <datalist id={`${ids.keyword}-offered`}>
          {offered.map((k) => (
            <option key={k} value={k} />
          ))}
        </datalist>
      </div>

      <span className="details-editor__label">Taken</span>
      {dateOpen ? (
        <form
          className="details-editor__date"
          onSubmit={(e) => {
            e.preventDefault();
            const at = date ? fromLocalInput(date, offset) : null;
            if (date && !at) return;
            void save({ takenAt: at ? at.toISOString() : null }, at ? `Date taken set to ${formatTaken(at.toISOString(), offset)}` : 'Date taken removed').then((ok) => ok && setDateOpen(false));
          }}
        >
          <input id={ids.date} className="input" type="datetime-local" step={1} aria-label="Date taken" value={date} onChange={(e) => setDate(e.target.value)} />
          <button type="submit" className="btn btn--primary">Save</button>
          <button type="button" className="btn btn--ghost" onClick={() => setDateOpen(false)}>Cancel</button>
        </form>
      ) : (
        <div className="details-editor__date">
          <span>{formatTaken(item.takenAt, offset)}</span>
          <button
            type="button"
            className="btn btn--ghost"
            aria-label="Change the date taken"
            onClick={() => {
              setDate(toLocalInput(item.takenAt ?? item.createdAt, offset));
              setDateOpen(true);
            }}
          >
            <Icon name="pencil" /> Change
          </button>
        </div>
      )}
      {error !== null && <ErrorLine error={error} />}
    </div>
  );
}
