// /test-clockwork (docs/product.md#public-pages): a bench for the loading components. Drive the clock face by
// hand or let it run, look at the other clockwork pieces, and launch the full loading screen (the demo).
import { useEffect, useState } from 'react';
import { Button } from '@kaboodle/kit';
import { ClockFace, Gears, MascotWidget, OrnamentalFrame, Pendulum, Sparkles } from '@kaboodle/kit';
import { useShellActions } from '../app/shell-actions.tsx';
import { DecoRule, PublicLayout } from './public-layout.tsx';

const PRESETS = [0, 25, 50, 75, 100];

export default function TestClockworkPage() {
  const { showDemo } = useShellActions();
  const [progress, setProgress] = useState(0);
  const [running, setRunning] = useState(false);
  const [burst, setBurst] = useState(0);
  // the widget's fallback: point it at a picture that does not exist and the emoji must take over
  const [brokenImage, setBrokenImage] = useState(false);

  // a simulated load: random steps every 300 ms (like the auth dialog's progress) until 100 %
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      setProgress((p) => {
        const next = Math.min(100, p + Math.random() * 15);
        if (next >= 100) setRunning(false);
        return next;
      });
    }, 300);
    return () => clearInterval(timer);
  }, [running]);

  return (
    <PublicLayout>
      <div className="kbp-container">
        <p className="kb-eyebrow">Workshop</p>
        <h1>Clockwork test bench</h1>
        <DecoRule />
        <div className="kbp-bench">
          <OrnamentalFrame as="section" title="Clock face" aria-labelledby="kbp-clock-title">
            <h2 id="kbp-clock-title" className="kb-visually-hidden">
              Clock face loading indicator
            </h2>
            <div className="kbp-bench-clock">
              <ClockFace percentage={progress} size={240} />
              <div className="kb-field" style={{ width: '100%', maxWidth: 360 }}>
                <label htmlFor="kbp-progress">Progress: {Math.round(progress)}%</label>
                <input
                  id="kbp-progress"
                  className="kbp-range"
                  type="range"
                  min={0}
                  max={100}
                  step={1}
                  value={Math.round(progress)}
                  onChange={(e) => {
                    setRunning(false);
                    setProgress(Number(e.target.value));
                  }}
                />
              </div>
              <div className="kbp-bench-controls" role="group" aria-label="Set progress">
                {PRESETS.map((p) => (
                  <Button
                    key={p}
                    size="sm"
                    variant="ghost"
                    onClick={() => {
                      setRunning(false);
                      setProgress(p);
                    }}
                  >
                    {p}%
                  </Button>
                ))}
              </div>
              <div className="kbp-bench-controls">
                <Button
                  variant="secondary"
                  onClick={() => {
                    setProgress(0);
                    setRunning(true);
                  }}
                  disabled={running}
                >
                  {running ? 'Simulating…' : 'Simulate a load'}
                </Button>
                <Button onClick={() => showDemo()}>Run the full loading screen</Button>
              </div>
            </div>
          </OrnamentalFrame>
          <section aria-labelledby="kbp-specimens-title">
            <h2 id="kbp-specimens-title" className="kb-visually-hidden">
              Other clockwork pieces
            </h2>
            <div className="kbp-specimens">
              <figure className="kbp-specimen">
                <Gears size={170} />
                <figcaption>Gear train</figcaption>
              </figure>
              <figure className="kbp-specimen">
                <Pendulum size={70} />
                <figcaption>Pendulum</figcaption>
              </figure>
              <figure className="kbp-specimen">
                <MascotWidget
                  key={brokenImage ? 'broken' : 'inline'}
                  size={110}
                  {...(brokenImage ? { src: '/mf/missing/tick-portrait.png' } : {})}
                />
                <figcaption>Mascot widget</figcaption>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-pressed={brokenImage}
                  onClick={() => setBrokenImage((b) => !b)}
                >
                  {brokenImage ? 'Restore the image' : 'Break the image'}
                </Button>
              </figure>
              <figure className="kbp-specimen">
                <button
                  type="button"
                  className="kb-button kb-button--ghost"
                  onClick={() => setBurst((n) => n + 1)}
                  style={{ position: 'relative', marginTop: 40 }}
                >
                  Sparkle
                  {burst > 0 && <Sparkles key={burst} count={8} />}
                </button>
                <figcaption>Sparkles</figcaption>
              </figure>
            </div>
          </section>
        </div>
      </div>
    </PublicLayout>
  );
}
