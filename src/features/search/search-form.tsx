import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { SEARCH_TEXT_MAX_CHARS } from '../../domain/queries';
import { COLOR_LABELS } from '../../lib/item-edit';
import { hasCriteria } from '../../lib/search-params';
import { Icon } from '../../ui/icon';

/** How long typing rests before the search runs and the address changes. */
const SETTLE_MS = 250;

/**
 * The search text. What is typed goes to the address once typing rests (so Back steps over whole searches, not
 * letters), and the box follows the address when Back or a link changes it. `/` anywhere in the app comes here
 * (`data-search-box`); Escape empties it.
 */
export function SearchBox({ value, onChange, label, autoFocus = false }: { value: string; onChange: (text: string) => void; label: string; autoFocus?: boolean }) {
  const [text, setText] = useState(value);
  const sent = useRef(value);
  // The screen re-renders while typing rests (tiles load): the timer must not restart with every new callback.
  const send = useRef(onChange);
  useLayoutEffect(() => {
    send.current = onChange;
  });
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (text === sent.current) return;
    const t = setTimeout(() => {
      sent.current = text;
      send.current(text);
    }, SETTLE_MS);
    return () => clearTimeout(t);
  }, [text]);
  return (
    <span className="search-box" role="search">
      <Icon name="search" />
      <input
        type="search"
        className="search-box__input"
        data-search-box=""
        aria-label={label}
        placeholder={label}
        value={text}
        maxLength={SEARCH_TEXT_MAX_CHARS}
        autoFocus={autoFocus}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            sent.current = text;
            send.current(text);
          } else if (e.key === 'Escape' && text) {
            e.stopPropagation();
            setText('');
          }
        }}
      />
    </span>
  );
}

export type CriteriaPatch = Partial<Record<'rating' | 'label' | 'kind' | 'from' | 'to', string | null>>;

/** Rating, colour label, kind and a span of days, as they stand in the address. */
export function SearchCriteria({ params, onChange }: { params: URLSearchParams; onChange: (patch: CriteriaPatch) => void }) {
  const get = (k: string) => params.get(k) ?? '';
  const set = (k: keyof CriteriaPatch) => (e: { target: { value: string } }) => onChange({ [k]: e.target.value || null });
  const any = hasCriteria(params);
  return (
    <div className="search-criteria" role="group" aria-label="Filters">
      <select className="select" aria-label="Rating" value={get('rating')} onChange={set('rating')}>
        <option value="">Any rating</option>
        {[1, 2, 3, 4, 5].map((n) => (
          <option key={n} value={String(n)}>
            {'★'.repeat(n)}
            {n < 5 ? ' or more' : ''}
          </option>
        ))}
      </select>
      <select className="select" aria-label="Label" value={get('label')} onChange={set('label')}>
        <option value="">Any label</option>
        {COLOR_LABELS.map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
      <select className="select" aria-label="Kind" value={get('kind')} onChange={set('kind')}>
        <option value="">Any kind</option>
        <option value="image">Photos</option>
        <option value="video">Videos</option>
        <option value="file">Files</option>
      </select>
      <label className="search-criteria__date">
        <span>From</span>
        <input type="date" className="select" value={get('from')} max={get('to') || undefined} onChange={set('from')} />
      </label>
      <label className="search-criteria__date">
        <span>To</span>
        <input type="date" className="select" value={get('to')} min={get('from') || undefined} onChange={set('to')} />
      </label>
      {any && (
        <button type="button" className="btn btn--ghost" onClick={() => onChange({ rating: null, label: null, kind: null, from: null, to: null })}>
          Clear filters
        </button>
      )}
    </div>
  );
}
