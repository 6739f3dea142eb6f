import { memo, type MouseEvent } from 'react';
import type { Item, ItemSocial } from '../../domain/entities';
import { formatDuration, safeFilename } from '../../lib/format';
import { Icon } from '../../ui/icon';
import { useObjectUrl } from '../../shared/files/use-url';
import { useUploaderName } from '../../shared/uploader-credit';
import { TileSocialBadges, tileSocialLabel } from '../social/tile-social-badges';
import { fileIconFor } from './file-icon';
import { ThumbhashImage } from '../../ui/thumbhash-image';

export const ItemTile = memo(function ItemTile({ item, left, width, top = 0, height, social, selected, tabbable, onClick, onCheck }: {
  item: Item;
  left: number;
  width: number;
  /** Below its month's label, in a row that months share; else the row's full height. */
  top?: number;
  height?: number;
  /** Its comment and heart counts, once its month's are known. */
  social?: ItemSocial | undefined;
  selected: boolean;
  tabbable: boolean;
  onClick: (item: Item, e: MouseEvent) => void;
  onCheck: (item: Item) => void;
}) {
  const url = useObjectUrl(item.thumbKey);
  const name = safeFilename(item.filename);
  const by = useUploaderName(item);
  return (
    <div
      role="gridcell"
      className="tile"
      data-item-id={item.id}
      data-kind={item.kind}
      aria-selected={selected}
      aria-label={name + tileSocialLabel(social)}
      title={by === undefined ? name : `${name}\nAdded by ${by}`}
      tabIndex={tabbable ? 0 : -1}
      style={{ left, width, top, height: height ?? '100%' }}
      // The round check is drawn, not a button: keyboard users select with Space on the cell itself.
      onClick={(e) => ((e.target as Element).closest('.tile__check') ? onCheck(item) : onClick(item, e))}
    >
      {/* The placeholder lies under the thumbnail, which covers it once decoded. */}
      {item.thumbhash && <ThumbhashImage hash={item.thumbhash} className="tile__placeholder" />}
      {url ? (
        <img className="tile__thumb" src={url} alt="" decoding="async" />
      ) : (
        !item.thumbKey && (
          <div className="tile__file">
            <Icon name={fileIconFor(item)} size={32} />
            <span>{name}</span>
          </div>
        )
      )}
      {by !== undefined && (
        // Shown on hover and focus; the cell's title carries it for assistive technology.
        <span className="tile__credit" aria-hidden="true">
          {by}
        </span>
      )}
      {item.kind === 'video' && <span className="tile__badge">{item.durationMs ? formatDuration(item.durationMs) : 'Video'}</span>}
      <TileSocialBadges social={social} />
      <span className="tile__check" aria-hidden="true">
        {selected && <Icon name="check" size={14} />}
      </span>
    </div>
  );
});
