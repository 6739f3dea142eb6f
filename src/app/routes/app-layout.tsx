import { NavLink, Link, Outlet } from 'react-router';
import { AppInstallHelp } from '../../features/install/install-help';
import { WaitingSharesNotice } from '../../features/share-inbox/waiting-shares';
import { UploadBar } from '../../features/uploads/upload-bar';
import { Icon } from '../../ui/icon';

export function AppLayout() {
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
