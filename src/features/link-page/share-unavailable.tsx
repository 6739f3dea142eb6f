import type { AppError } from '../../lib/app-error';
import { errorText, SHARE_VIEW_LIMIT } from '../../lib/error-messages';
import { Icon } from '../../ui/icon';
import { ShareCard } from './share-card';

/** A link that no longer works says why, and nothing about the album it led to. */
export function ShareUnavailable({ error }: { error: AppError }) {
  const text = error.code === 'share/expired' && error.details?.reason === 'view-limit' ? SHARE_VIEW_LIMIT : errorText(error.code);
  return (
    <ShareCard>
      <div className="share-page__icon" aria-hidden="true">
        <Icon name="image" size={40} />
      </div>
      <h1 data-error-code={error.code}>{text.title}</h1>
      <p className="muted">{text.action}</p>
    </ShareCard>
  );
}
