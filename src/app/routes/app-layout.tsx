import { useEffect } from 'react';
import { NavLink, Link, Outlet, useNavigate } from 'react-router';
import { AppInstallHelp } from '../../features/install/install-help';
import { WaitingSharesNotice } from '../../features/share-inbox/waiting-shares';
import { UploadBar } from '../../features/uploads/upload-bar';
import { Icon } from '../../ui/icon';

/**
 * `/` searches, as in Gmail, GitHub and Google Photos: it goes to the search box of the screen (an album's), else to
 * the search across albums. Not while typing, and not over a dialog (the viewer is one).
 */
function useSlashToSearch() {
  const navigate = useNavigate();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const t = e.target as HTMLElement | null;
      if (t?.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="dialog"]')) return;
      if (document.querySelector('[role="dialog"]')) return;
      e.preventDefault();
      const box = document.querySelector<HTMLInputElement>('[data-search-box]');
      if (box) box.focus();
      else void navigate('/search');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);
}

export function AppLayout() {
  useSlashToSearch();
  return (
    <div className="app">
      <a className="visually-hidden" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <Link to="/" className="app-header__brand">
          <img src="/icon.svg" alt="" />
          Shoebox
        </Link>
        <nav aria-label="Main">
          <NavLink to="/" end>
            <Icon name="image" /> <span>Albums</span>
          </NavLink>
          <NavLink to="/search" aria-keyshortcuts="/">
            <Icon name="search" /> <span>Search</span>
          </NavLink>
          <NavLink to="/uploads">
            <Icon name="upload" /> <span>Uploads</span>
          </NavLink>
          <NavLink to="/account">
            <Icon name="user" /> <span>Account</span>
          </NavLink>
        </nav>
        <AppInstallHelp />
      </header>
      <main id="main" className="app-main">
        <WaitingSharesNotice />
        <Outlet />
      </main>
      <UploadBar />
    </div>
  );
}
