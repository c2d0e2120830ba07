// The plain layout of the public pages (docs/product.md#public-pages): a slim Deco top bar with the brand and
// the public links, the page, and a footer.
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { Button } from '@kaboodle/kit';
import { KaboodleMark } from '@kaboodle/kit';
import { useSession } from '../session/session-context.tsx';
import { useShellActions } from '../app/shell-actions.tsx';
import './pages.css';

export function PublicLayout({ children, className }: { children: ReactNode; className?: string }) {
  const { isAuthenticated, loading } = useSession();
  const { openAuthDialog } = useShellActions();
  // A signed-in reader sees public pages inside the app shell, which has its own navigation and <main>.
  if (isAuthenticated) {
    return <div className={`kbp-page kbp-page--in-shell ${className ?? ''}`}>{children}</div>;
  }
  return (
    <div className={`kbp-page ${className ?? ''}`}>
      <header className="kbp-container kbp-topbar">
        <Link to="/" className="kbp-brand" aria-label="Kaboodle home">
          <KaboodleMark size={30} />
          <span>Kaboodle</span>
        </Link>
        <nav className="kbp-nav" aria-label="Public pages">
          <NavLink to="/about">About</NavLink>
          <NavLink to="/resources">Resources</NavLink>
          <NavLink to="/terms">Terms</NavLink>
          <Button variant="secondary" size="sm" onClick={() => openAuthDialog()} disabled={loading}>
            Sign in
          </Button>
        </nav>
      </header>
      <main className="kbp-main">{children}</main>
      <footer className="kbp-footer">
        <div className="kbp-container kbp-footer-inner">
          <span>Kaboodle · an archive that keeps time · tended by Tick</span>
          <span className="kbp-footer-links">
            <Link to="/about">About</Link>
            <Link to="/resources">Resources</Link>
            <Link to="/terms">Terms</Link>
          </span>
        </div>
      </footer>
    </div>
  );
}

/** The small diamond-centred gold rule used under page headings. */
export function DecoRule() {
  return (
    <div className="kbp-deco-rule" aria-hidden="true">
      <i />
    </div>
  );
}
