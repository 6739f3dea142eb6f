import { useRouteError } from 'react-router';
import { ErrorPanel } from '../../ui/error-panel';
import { log } from '../../lib/log';

/** What a screen shows if it fails to render: a sentence and a way on, never a blank page. */
export function RouteError() {
  const error = useRouteError();
  log.error(error);
  return (
    <div className="page page--center">
      <div>
        <ErrorPanel error={error} onRetry={() => window.location.reload()} />
        <p>
          <a href="/">Go to your albums</a>
        </p>
      </div>
    </div>
  );
}
