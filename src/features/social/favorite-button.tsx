import { useState } from 'react';
import { formatCount, formatNumber } from '../../lib/format';
import { ErrorLine } from '../../ui/error-panel';
import { Icon } from '../../ui/icon';
import { Popover } from '../../ui/popover';
import { useFavoriters } from './use-social';

/** The viewer's heart: one's own (pressed or not), the count, and who gave them (`f` toggles it too). */
export function FavoriteButton({ albumId, itemId, mine, count, onToggle }: {
  albumId: string;
  itemId: string;
  mine: boolean;
  count: number;
  onToggle: () => void;
}) {
  const [open, setOpen] = useState(false);
  const who = useFavoriters(albumId, itemId, open);
  return (
    <span className="favorite">
      <button
        type="button"
        className={`btn btn--icon favorite__heart${mine ? ' favorite__heart--on' : ''}`}
        aria-label="Favourite"
        aria-pressed={mine}
        aria-keyshortcuts="f"
        data-testid="favorite-button"
        onClick={onToggle}
      >
        <Icon name="heart" filled={mine} />
      </button>
      {count > 0 && (
        <Popover
          label="Who gave a heart"
          open={open}
          onOpenChange={setOpen}
          className="favoriters"
          trigger={
            <button type="button" className="btn favorite__count" aria-label={`${formatCount(count, 'heart', 'hearts')}, show who`} data-testid="favorite-count">
              {formatNumber(count)}
            </button>
          }
        >
          {who.isPending ? (
            <p aria-busy="true" className="muted">Loading…</p>
          ) : who.isError ? (
            <ErrorLine error={who.error} />
          ) : (
            <ul className="favoriters__list" aria-label="Who gave a heart">
              {who.data.map((f) => (
                <li key={f.userId}>
                  <Icon name="heart" size={14} filled /> {f.displayName || 'Someone'}
                </li>
              ))}
            </ul>
          )}
        </Popover>
      )}
    </span>
  );
}
