// Landing page (docs/product.md#landing-page, route /): the mascot, the pitch and Launch / Demo / Explore on
// the left, four capability panels (one open at a time) on the right; a welcome prompt when signed out and a
// dismissible notice after a failed sign-in return (/?error=auth_failed).
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Banner, Button } from '@kaboodle/kit';
import { useSession } from '../session/session-context.tsx';
import { useShellActions } from '../app/shell-actions.tsx';
import { CapabilityPanel } from './capability-panel.tsx';
import { CAPABILITIES } from './landing-capabilities.ts';
import { AboutDialog, MascotDialog } from './landing-dialogs.tsx';
import { LandingHero } from './landing-hero.tsx';
import { DecoRule, PublicLayout } from './public-layout.tsx';

export { MASCOT_SPARKLES, MASCOT_SPARKLE_MS } from './landing-hero.tsx';
export const AUTH_FAILED_TEXT = 'Sign-in failed. Please try again.';

/** The notices above the landing: a failed sign-in return, and the welcome prompt when signed out. */
function LandingNotices({ onSignIn }: { onSignIn: () => void }) {
  const { isAuthenticated, checked } = useSession();
  const [params, setParams] = useSearchParams();
  const dismissAuthError = () => {
    const next = new URLSearchParams(params);
    next.delete('error');
    setParams(next, { replace: true });
  };
  return (
    <div className="kbp-notices">
      {params.get('error') === 'auth_failed' && (
        <Banner tone="error" onDismiss={dismissAuthError}>
          <strong>{AUTH_FAILED_TEXT}</strong>
        </Banner>
      )}
      {checked && !isAuthenticated && (
        <section className="kbp-welcome" aria-labelledby="kbp-welcome-title" data-testid="welcome">
          <div>
            <h2 id="kbp-welcome-title">Welcome to Kaboodle</h2>
            <p>Please sign in to reach your document workspace.</p>
          </div>
          <Button variant="secondary" onClick={onSignIn}>
            Sign in
          </Button>
        </section>
      )}
    </div>
  );
}

export default function LandingPage() {
  const { openAuthDialog, showDemo } = useShellActions();
  const [openPanel, setOpenPanel] = useState<string | null>(CAPABILITIES[0]!.id);
  const [mascotOpen, setMascotOpen] = useState(false);
  const [aboutOpen, setAboutOpen] = useState(false);

  return (
    <PublicLayout className="kbp-landing">
      <div className="kbp-container">
        <LandingNotices onSignIn={() => openAuthDialog()} />
        <div className="kbp-landing-grid">
          <LandingHero
            onMascot={() => setMascotOpen(true)}
            onLaunch={() => openAuthDialog()}
            onDemo={() => showDemo()}
            onExplore={() => setAboutOpen(true)}
          />
          <section className="kbp-capabilities" aria-labelledby="kbp-capabilities-title">
            <div className="kbp-capabilities-head">
              <h2 id="kbp-capabilities-title">Capabilities</h2>
              <span>Open a panel to see the details</span>
            </div>
            {CAPABILITIES.map((c) => (
              <CapabilityPanel
                key={c.id}
                capability={c}
                open={openPanel === c.id}
                onToggle={() => setOpenPanel((current) => (current === c.id ? null : c.id))}
              />
            ))}
          </section>
        </div>
      </div>

      <MascotDialog open={mascotOpen} onClose={() => setMascotOpen(false)} />
      <AboutDialog open={aboutOpen} onClose={() => setAboutOpen(false)} onLaunch={() => openAuthDialog()} />
      <div className="kbp-container" aria-hidden="true">
        <DecoRule />
      </div>
    </PublicLayout>
  );
}
