// Route wrappers: protected routes (docs/product.md#app-shell), signed-in "/" → /dashboard, and public pages
// that keep the app shell around them for a signed-in user.
import { Suspense, type ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { readStoredUser } from '@kaboodle/kit';
import { useSession } from '../session/session-context.tsx';
import { SessionBanner } from '../session/session-banner.tsx';
import { SessionLoadingScreen } from '../session/session-loading-screen.tsx';
import { AppShell } from './app-shell.tsx';
import { page } from './page-loader.tsx';
import { useAuthFlowActive } from './shell-actions.tsx';

/** Shown while a lazily loaded screen arrives. */
export function ScreenFallback() {
  return (
    <div className="kb-remote-loading" role="status">
      <div className="kb-auth__spinner" aria-hidden="true" />
      <span>Loading...</span>
    </div>
  );
}

/** Signed-out visitors go to /; while the session loads, nothing renders (after a grace period, progress). */
export function ProtectedRoute() {
  const { user, loading, checked } = useSession();
  if (!checked || (loading && !user)) return <SessionLoadingScreen loading graceMs={400} />;
  if (!user) return <Navigate to="/" replace />;
  return (
    <AppShell>
      <Suspense fallback={<ScreenFallback />}>
        <Outlet />
      </Suspense>
    </AppShell>
  );
}

/** Plain layout for visitors; inside the app shell for a signed-in user (so navigation stays). */
export function PublicRoute({ children }: { children?: ReactNode }) {
  const { user } = useSession();
  const content = <Suspense fallback={<ScreenFallback />}>{children ?? <Outlet />}</Suspense>;
  if (user) return <AppShell>{content}</AppShell>;
  return <div className="kb-public">{content}</div>;
}

const LandingPage = page('landing-page');

/** "/": the landing for visitors (it shows the ?error=auth_failed notice itself), /dashboard for a signed-in user. */
export function HomeRoute() {
  const { user, checked, banner } = useSession();
  // During a sign-in from the landing, the shell navigates itself (2 s into the loading screen).
  const signingIn = useAuthFlowActive();
  if (user && !signingIn) return <Navigate to="/dashboard" replace />;
  // Someone who was signed in last time: wait for the check rather than flash the landing.
  if (!checked && readStoredUser()) return null;
  return (
    <div className="kb-public">
      {banner && (
        // e.g. "Session expired" after the client's auth:error signed this visitor out.
        <div className="kb-public__notice">
          <SessionBanner />
        </div>
      )}
      <Suspense fallback={<ScreenFallback />}>
        <LandingPage />
      </Suspense>
    </div>
  );
}
