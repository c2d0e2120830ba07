// The landing page's left side (docs/product.md#landing-page): the mascot on its stage (a click shows
// 8 sparkles for 1 s and opens "Meet Tick"), the pitch, Launch / Demo / Explore and who it is for.
import { useEffect, useRef, useState } from 'react';
import { Button, Gears, Sparkles, TickMascot } from '@kaboodle/kit';

/** docs/product.md#landing-page: clicking the mascot shows 8 sparkles for 1 s. */
export const MASCOT_SPARKLES = 8;
export const MASCOT_SPARKLE_MS = 1000;

/** The sparkle burst: a new key restarts it if Tick is clicked again within the second. */
function useSparkleBurst(): [number, () => void] {
  const [burst, setBurst] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const start = () => {
    setBurst((n) => n + 1);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setBurst(0), MASCOT_SPARKLE_MS);
  };
  return [burst, start];
}

export interface LandingHeroProps {
  onMascot: () => void;
  onLaunch: () => void;
  onDemo: () => void;
  onExplore: () => void;
}

export function LandingHero({ onMascot, onLaunch, onDemo, onExplore }: LandingHeroProps) {
  const [sparkleBurst, sparkle] = useSparkleBurst();
  return (
    <section className="kbp-hero" aria-labelledby="kbp-title">
      <div className="kbp-stage">
        <span className="kbp-stage-halo" aria-hidden="true" />
        <span className="kbp-stage-ring" aria-hidden="true" />
        <Gears size={118} className="kbp-stage-gears" />
        <Gears size={84} speed={18} className="kbp-stage-gears-top" />
        <button
          type="button"
          className="kbp-mascot-button"
          onClick={() => {
            onMascot();
            sparkle();
          }}
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
        Kaboodle is an AI workspace for organising, summarising and analysing what you collect. Upload papers,
        contracts and notes, or photograph the goods on your shelves: Kaboodle extracts the text, writes the
        summary, tags each record with weighted hashtags and files it into searchable collections called
        kaboodles, ready to export as CSV or JSON.
      </p>
      <div className="kbp-actions">
        <Button size="lg" onClick={onLaunch}>
          Launch
        </Button>
        <Button size="lg" variant="secondary" onClick={onDemo}>
          Demo
        </Button>
        <Button size="lg" variant="ghost" onClick={onExplore} aria-haspopup="dialog">
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
  );
}
