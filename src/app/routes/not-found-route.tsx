import { Link } from 'react-router';

export function NotFoundRoute() {
  return (
    <div className="page page--center">
      <div className="empty">
        <h1>Page not found</h1>
        <p>There is nothing at this address.</p>
        <Link className="btn btn--primary" to="/">
          Go to your albums
        </Link>
      </div>
    </div>
  );
}
