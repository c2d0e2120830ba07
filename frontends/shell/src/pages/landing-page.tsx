// Landing page (docs/product.md#landing-page, route /): the mascot, the pitch and Launch / Demo / Explore on
// the left, four capability panels (one open at a time) on the right; a welcome prompt when signed out and a
// dismissible notice after a failed sign-in return (/?error=auth_failed).
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Banner, Button, Dialog } from '@kaboodle/kit';
import { DecoIcon, Gears, Sparkles, TickMascot } from '@kaboodle/kit';
import { useSession } from '../session/session-context.tsx';
import { useShellActions } from '../app/shell-actions.tsx';
import { CAPABILITIES, type Capability } from './landing-capabilities.ts';
import { DecoRule, PublicLayout } from './public-layout.tsx';

/** docs/product.md#landing-page: clicking the mascot shows 8 sparkles for 1 s. */
export const MASCOT_SPARKLES = 8;
export const MASCOT_SPARKLE_MS = 1000;
export const AUTH_FAILED_TEXT = 'Sign-in failed. Please try again.';

function CapabilityPanel({
  capability,
  open,
  onToggle,
}: {
  capability: Capability;
  open: boolean;
  onToggle: () => void;
}) {
  const bodyId = useId();
  return (
    <article className="kbp-panel" data-open={open} data-panel={capability.id} id={capability.id}>
      <h3>
        <button
          type="button"
          className="kbp-panel-toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={onToggle}
        >
          <span className="kbp-badge" aria-hidden="true">
            <DecoIcon name={capability.icon} size={22} />
          </span>
          <span>
            <span className="kbp-panel-title">{capability.title}</span>
            <span className="kbp-panel-summary">{capability.description}</span>
          </span>
          <span className="kbp-chevron" aria-hidden="true">
            <svg
              width="14"
              height="14"
              viewBox="0 0 14 14"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
            >
              <path d="m3 5 4 4 4-4" />
            </svg>
          </span>
        </button>
      </h3>
      <div id={bodyId} className="kbp-panel-body" role="region" aria-label={capability.title} hidden={!open}>
        {open && (
          <ul className="kbp-details">
            {capability.details.map((d) => (
              <li key={d.title} className="kbp-detail">
                <DecoIcon name={d.icon} size={20} />
                <strong>{d.title}</strong>
                <span>{d.description}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </article>
  );
}

export default function LandingPage() {
  const { isAuthenticated, checked } = useSession();
  const { openAuthDialog, showDemo } = useShellActions();
  const [params, setParams] = useSearchParams();
  const [openPanel, setOpenPanel] = useState<string | null>(CAPABILITIES[0]!.id);
  const [mascotOpen, setMascotOpen] = useState(false);
  const [aboutOpen, setAboutOpen] = useState(false);
  const [sparkleBurst, setSparkleBurst] = useState(0);
  const sparkleTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const authFailed = params.get('error') === 'auth_failed';

  useEffect(() => () => clearTimeout(sparkleTimer.current), []);

  const onMascot = () => {
    setMascotOpen(true);
    // a new key restarts the burst if Tick is clicked again within the second
    setSparkleBurst((n) => n + 1);
    clearTimeout(sparkleTimer.current);
    sparkleTimer.current = setTimeout(() => setSparkleBurst(0), MASCOT_SPARKLE_MS);
  };

  const dismissAuthError = () => {
    const next = new URLSearchParams(params);
    next.delete('error');
    setParams(next, { replace: true });
  };

  return (
    <PublicLayout className="kbp-landing">
      <div className="kbp-container">
        <div className="kbp-notices">
          {authFailed && (
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
              <Button variant="secondary" onClick={() => openAuthDialog()}>
                Sign in
              </Button>
            </section>
          )}
        </div>

        <div className="kbp-landing-grid">
          <section className="kbp-hero" aria-labelledby="kbp-title">
            <div className="kbp-stage">
              <span className="kbp-stage-halo" aria-hidden="true" />
              <span className="kbp-stage-ring" aria-hidden="true" />
              <Gears size={118} className="kbp-stage-gears" />
              <Gears size={84} speed={18} className="kbp-stage-gears-top" />
              <button
                type="button"
                className="kbp-mascot-button"
                onClick={onMascot}
                aria-label="Meet Tick, the Kaboodle mascot"
                aria-haspopup="dialog"
              >
                <TickMascot size={190} pose="wave" title="" />
                {sparkleBurst > 0 && (
                  <Sparkles key={sparkleBurst} count={MASCOT_SPARKLES} duration={MASCOT_SPARKLE_MS} />
                )}
              </button>
            </div>
            <p className="kb-eyebrow">The clockwork archive</p>
            <h1 id="kbp-title" className="kbp-title">
              Kaboodle
            </h1>
            <p className="kbp-tagline">Every document and every object, read, catalogued and found.</p>
            <p className="kbp-description">
              Kaboodle is an AI workspace for organising, summarising and analysing what you collect. Upload
              papers, contracts and notes, or photograph the goods on your shelves: Kaboodle extracts the
              text, writes the summary, tags each record with weighted hashtags and files it into searchable
              collections called kaboodles, ready to export as CSV or JSON.
            </p>
            <div className="kbp-actions">
              <Button size="lg" onClick={() => openAuthDialog()}>
                Launch
              </Button>
              <Button size="lg" variant="secondary" onClick={() => showDemo()}>
                Demo
              </Button>
              <Button size="lg" variant="ghost" onClick={() => setAboutOpen(true)} aria-haspopup="dialog">
                Explore
              </Button>
            </div>
            <ul className="kbp-audiences" aria-label="Made for">
              <li>Researchers</li>
              <li>Lawyers</li>
              <li>Entrepreneurs</li>
              <li>Makers cataloguing stock</li>
            </ul>
          </section>

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

      <Dialog open={mascotOpen} onClose={() => setMascotOpen(false)} title="Meet Tick">
        <div className="kbp-dialog-hero">
          <TickMascot size={120} pose="reading" eyewear="spectacles" />
          <div className="kbp-dialog-text">
            <p>
              <strong>Tick</strong> is Kaboodle’s clockwork archivist: a brass pocket watch with a monocle, a
              bow tie and a very orderly mind. His hands are stopped at ten past ten, which is why he always
              looks pleased to see you.
            </p>
          </div>
        </div>
        <div className="kbp-dialog-text">
          <p>
            Every file you hand him is read, summarised, tagged and shelved. When you search, he goes looking
            by meaning as well as by the exact words, and he tells you how sure he is.
          </p>
        </div>
        <ul className="kbp-facts">
          <li>
            <b>Role</b>Archivist
          </li>
          <li>
            <b>Mechanism</b>Brass, 28-tooth escapement
          </li>
          <li>
            <b>Motto</b>At your service!
          </li>
        </ul>
        <div className="kbp-dialog-actions">
          <Button variant="ghost" onClick={() => setMascotOpen(false)}>
            Back to the landing page
          </Button>
        </div>
      </Dialog>

      <Dialog open={aboutOpen} onClose={() => setAboutOpen(false)} title="About Kaboodle">
        <div className="kbp-dialog-text">
          <p>
            Kaboodle turns a pile of files into an archive. It extracts and summarises documents, classifies
            them with hashtags and relevancy scores, catalogues physical inventory from photos and barcodes,
            and lets you search everything by meaning or by keyword.
          </p>
          <p>
            Work happens in three partitions: a <strong>rolodex and layout switcher</strong> to choose how you
            look at your collection, a <strong>processing zone</strong> to upload files, paste links and give
            the AI instructions, and a <strong>results table</strong> of organised, searchable records with
            their metadata.
          </p>
        </div>
        <div className="kbp-dialog-actions">
          <Link
            to="/about"
            className="kb-button kb-button--ghost kbp-link-button"
            onClick={() => setAboutOpen(false)}
          >
            Read the full story
          </Link>
          <Button
            onClick={() => {
              setAboutOpen(false);
              openAuthDialog();
            }}
          >
            Launch Kaboodle
          </Button>
        </div>
      </Dialog>
      <div className="kbp-container" aria-hidden="true">
        <DecoRule />
      </div>
    </PublicLayout>
  );
}
