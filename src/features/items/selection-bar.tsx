import type { ReactNode } from 'react';
import { formatNumber } from '../../lib/format';
import { Icon } from '../../ui/icon';

/** The bar over an album's grid while items are selected: how many, a way out, and what may be done to them. */
export function SelectionBar({ count, onClear, children }: { count: number; onClear: () => void; children: ReactNode }) {
  return (
    <div className="album-toolbar selection-bar" role="toolbar" aria-label="Selection">
      <button type="button" className="btn btn--icon" aria-label="Clear selection" onClick={onClear}>
        <Icon name="close" />
      </button>
      <strong>{formatNumber(count)} selected</strong>
      <span className="album-toolbar__spacer" />
      {children}
    </div>
  );
}
