// The signed-in frame (docs/product.md#app-shell): left navigation with the current entry, version label,
// header with the user menu, the error banner above the content, and the "How to Use Kaboodle" footer.
import { useEffect, useState, type ReactNode } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { Progress } from '@kaboodle/kit';
import { useSession } from '../session/session-context.tsx';
import { SessionBanner } from '../session/session-banner.tsx';
import { entriesFor, isActiveEntry, pageName } from './navigation.ts';
import { useShellActions } from './shell-actions.tsx';
import { UserMenu } from './user-menu.tsx';
import { VerifyEmailNotice } from './verify-email-notice.tsx';

export const VERSION_LABEL = `v${__KABOODLE_VERSION__}`;

function Brand() {
  return (
    <Link to="/" className="kb-brand" aria-label="Kaboodle home">
      <svg viewBox="0 0 40 40" width="34" height="34" aria-hidden="true">
        <circle
          cx="20"
          cy="20"
          r="13"
          fill="none"
          stroke="var(--kb-gold)"
          strokeWidth="4"
          strokeDasharray="5.2 3.1"
        />
        <circle cx="20" cy="20" r="6" fill="var(--kb-teal)" />
      </svg>
      <span className="kb-brand__name">Kaboodle</span>
    </Link>
  );
}

export function AppShell({ children }: { children?: ReactNode }) {
  const { user, dataLoad } = useSession();
  const { openHelp } = useShellActions();
  const { pathname } = useLocation();
  const [navOpen, setNavOpen] = useState(false);

  // The small-screen menu closes whenever the route changes.
  useEffect(() => setNavOpen(false), [pathname]);

  const entries = entriesFor(user?.role);
  const loadingData = dataLoad !== null && dataLoad.progress > 0 && dataLoad.progress < 100;

  return (
    <div className={`kb-shell${navOpen ? ' kb-shell--nav-open' : ''}`}>
      <a className="kb-skip" href="#kb-main">
        Skip to content
      </a>
      <aside className="kb-shell__nav">
        <div className="kb-shell__nav-head">
          <Brand />
        </div>
        <nav id="kb-nav" aria-label="Main navigation">
          <ul>
            {entries.map((entry) => {
              const active = isActiveEntry(entry, pathname);
              return (
                <li key={entry.to}>
                  <Link
                    to={entry.to}
                    className={`kb-nav-link${active ? ' is-active' : ''}`}
                    aria-current={active ? 'page' : undefined}
                  >
                    <span className="kb-nav-link__icon" aria-hidden="true">
                      {entry.icon}
                    </span>
                    {entry.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <p className="kb-shell__version" data-testid="version-label">
          {VERSION_LABEL}
        </p>
      </aside>
      <button
        type="button"
        className="kb-shell__scrim"
        aria-label="Close navigation"
        tabIndex={navOpen ? 0 : -1}
        onClick={() => setNavOpen(false)}
      />
      <div className="kb-shell__body">
        <header className="kb-shell__header">
          <button
            type="button"
            className="kb-icon-button kb-shell__menu-button"
            aria-label={navOpen ? 'Close navigation' : 'Open navigation'}
            aria-expanded={navOpen}
            aria-controls="kb-nav"
            onClick={() => setNavOpen((o) => !o)}
          >
            ☰
          </button>
          <div className="kb-shell__header-title">
            <span className="kb-eyebrow" data-testid="page-name">
              {pageName(pathname, entries)}
            </span>
          </div>
          <UserMenu />
          {/* under the header, over the page: appearing and going, it moves nothing (layout shift) */}
          {loadingData && (
            <div className="kb-shell__dataload">
              <Progress value={dataLoad.progress} label={dataLoad.message} />
            </div>
          )}
        </header>
        <main id="kb-main" className="kb-shell__main" tabIndex={-1}>
          <SessionBanner className="kb-shell__banner" />
          <VerifyEmailNotice />
          {children ?? <Outlet />}
        </main>
        <footer className="kb-shell__footer">
          <button type="button" className="kb-link-button" onClick={openHelp}>
            How to Use Kaboodle
          </button>
          <span className="kb-shell__footer-note">
            Kaboodle {VERSION_LABEL} · Tick keeps time on your archive
          </span>
        </footer>
      </div>
    </div>
  );
}
