import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { initials } from '../../lib/initials';
import { formatRelativeTime } from '../../lib/relative-time';
import { isMendable, showsWhatItHad } from '../../lib/error-policy';
import { ErrorPanel } from '../../ui/error-panel';
import { actorLabel, activityParts } from './activity-text';
import type { ActivityEntry } from './group-activity';
import { useActivityFeed } from './use-activity';

/** The home screen's recent activity across albums: loading, empty, error, or the entries, newest first. */
export function ActivityList() {
  const feed = useActivityFeed();
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title" className="section-title">Recent activity</h2>
      {feed.isPending && feed.fetchStatus === 'paused' ? (
        <p className="muted activity__empty">Recent activity shows when you are back online.</p>
      ) : feed.isPending ? (
        <ul className="activity" aria-busy="true" aria-label="Loading activity">
          {[0, 1, 2].map((i) => (
            <li key={i} className="skeleton activity__skeleton" />
          ))}
        </ul>
      ) : feed.isError && !showsWhatItHad(feed.data, feed.error) ? (
        isMendable(feed.error) ? (
          // A quiet line, not a panel: the albums above are what the screen is for, and they may well be on screen.
          <p className="muted activity__empty" role="status" data-error-code={feed.error.code}>
            Recent activity could not be loaded.{' '}
            <button type="button" className="btn btn--small" onClick={() => void feed.refetch()}>
              Try again
            </button>
          </p>
        ) : (
          <ErrorPanel error={feed.error} onRetry={() => void feed.refetch()} />
        )
      ) : !feed.entries?.length ? (
        <p className="muted activity__empty">Nothing new yet. What you and the people you share albums with add, say and change shows here.</p>
      ) : (
        <ul className="activity">
          {feed.entries.map((entry) => (
            <li key={entry.key} className="activity__entry">
              <ActivityEntryLine entry={entry} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ActivityEntryLine({ entry }: { entry: ActivityEntry }) {
  const actor = actorLabel(entry);
  return (
    <>
      <span className={entry.actorName ? 'avatar' : 'avatar avatar--gone'} aria-hidden="true">
        {entry.actorName ? initials(entry.actorName) : '?'}
      </span>
      <span className="activity__text">
        <strong>{actor}</strong>{' '}
        {activityParts(entry).map((part, i) =>
          typeof part === 'string' ? (
            <span key={i}>{part}</span>
          ) : (
            <Link key={i} to={part.href}>
              {part.text}
            </Link>
          ),
        )}
        <span className="muted">
          {' · '}
          <time dateTime={entry.createdAt} title={formatDateTime(entry.createdAt)}>
            {formatRelativeTime(entry.createdAt)}
          </time>
        </span>
      </span>
    </>
  );
}
