import type { ItemSocial } from '../../domain/entities';
import { formatCount, formatNumber } from '../../lib/format';
import { Icon } from '../../ui/icon';

/** What the tile's name adds for assistive technology: ", 2 comments, 3 hearts, yours among them". */
export function tileSocialLabel(social: ItemSocial | undefined): string {
  if (!social) return '';
  const parts: string[] = [];
  if (social.commentCount > 0) parts.push(formatCount(social.commentCount, 'comment', 'comments'));
  if (social.favoriteCount > 0) parts.push(formatCount(social.favoriteCount, 'heart', 'hearts') + (social.myFavorite ? ', yours among them' : ''));
  return parts.length ? `, ${parts.join(', ')}` : '';
}

/** A tile's comment count and heart (filled when it is one's own), shown only when there is something. */
export function TileSocialBadges({ social }: { social: ItemSocial | undefined }) {
  if (!social || (social.commentCount === 0 && social.favoriteCount === 0)) return null;
  return (
    <span className="tile__social" aria-hidden="true" data-testid="tile-social">
      {social.commentCount > 0 && (
        <span className="tile__social-part">
          <Icon name="comment" size={13} /> {formatNumber(social.commentCount)}
        </span>
      )}
      {social.favoriteCount > 0 && (
        <span className={`tile__social-part${social.myFavorite ? ' tile__social-part--mine' : ''}`} data-mine={social.myFavorite}>
          <Icon name="heart" size={13} filled={social.myFavorite} /> {formatNumber(social.favoriteCount)}
        </span>
      )}
    </span>
  );
}
