// The full-screen loading screen (docs/product.md#loading-screen, #states): clock face, stage message and
// dots, progress bar, 20 ambient particles and Tick's reveal at 60 %. Used for the demo and after sign-in.
import { useEffect, useMemo, useRef, useState } from 'react';
import { ClockFace, Gears, Pendulum, Progress, TickMascot } from '@kaboodle/kit';
import {
  DEFAULT_MAX_LOAD_MS,
  DESKTOP_STAGES,
  MOBILE_BREAKPOINT_PX,
  MOBILE_STAGES,
  createLoadingSequence,
  type LoadingSequence,
  type LoadingSnapshot,
} from './loading-sequence.ts';
import { playEffect } from './sound-effects.ts';
import { claimErrors } from '../startup/startup-errors.ts';

export const PARTICLE_COUNT = 20;

export interface LoadingScreenProps {
  onComplete: () => void;
  maxLoadMs?: number;
  /** Force a layout (tests, /test-clockwork); by default the viewport decides (≤ 768 px is mobile). */
  mobile?: boolean;
  /**
   * How far the real work behind the screen is (0–100). Given, the stages follow it (after a
   * sign-in); left out, they run on the spec's durations (the demo).
   */
  work?: number;
}

function isMobileViewport(): boolean {
  return typeof window !== 'undefined' && window.matchMedia(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`).matches;
}

export default function LoadingScreen({
  onComplete,
  maxLoadMs = DEFAULT_MAX_LOAD_MS,
  mobile,
  work,
}: LoadingScreenProps) {
  const isMobile = useMemo(() => mobile ?? isMobileViewport(), [mobile]);
  const stages = isMobile ? MOBILE_STAGES : DESKTOP_STAGES;
  const [snap, setSnap] = useState<LoadingSnapshot>({
    stageIndex: 0,
    progress: 0,
    message: stages[0]!.message,
    mascotVisible: false,
    status: 'running',
    error: null,
  });
  const completeRef = useRef(onComplete);
  completeRef.current = onComplete;
  const paced = work !== undefined;
  const sequence = useRef<LoadingSequence | null>(null);

  useEffect(() => {
    const seq = createLoadingSequence({
      mobile: isMobile,
      pace: paced ? 'work' : 'timed',
      maxLoadMs,
      onUpdate: setSnap,
      onEffect: playEffect,
      onComplete: () => completeRef.current(),
    });
    // Uncaught errors and unhandled rejections reach this screen instead of the startup error screen.
    const release = claimErrors((error) => seq.fail(error));
    sequence.current = seq;
    seq.start();
    return () => {
      sequence.current = null;
      seq.dispose();
      release();
    };
  }, [isMobile, maxLoadMs, paced]);
  useEffect(() => {
    if (work !== undefined) sequence.current?.work(work);
  }, [work, isMobile, paced]);

  // Particles are placed once per mount; CSS drifts them.
  const particles = useMemo(
    () =>
      Array.from({ length: PARTICLE_COUNT }, (_, i) => ({
        left: Math.random() * 100,
        top: Math.random() * 100,
        delay: Math.random() * 6,
        duration: 6 + Math.random() * 8,
        size: 2 + Math.random() * 4,
        hue: i % 3,
      })),
    [],
  );

  return (
    <div
      className={`kb-loading${paced ? ' kb-loading--work' : ''}`}
      role="dialog"
      aria-modal="true"
      aria-label="Loading Kaboodle"
      data-testid="loading-screen"
    >
      <div className="kb-loading__particles" aria-hidden="true">
        {particles.map((p, i) => (
          <span
            key={i}
            className={`kb-loading__particle kb-loading__particle--${p.hue}`}
            style={{
              left: `${p.left}%`,
              top: `${p.top}%`,
              width: p.size,
              height: p.size,
              animationDelay: `${p.delay}s`,
              animationDuration: `${p.duration}s`,
            }}
          />
        ))}
      </div>
      <Gears className="kb-loading__gears kb-loading__gears--left" size={isMobile ? 140 : 240} />
      <Gears className="kb-loading__gears kb-loading__gears--right" size={isMobile ? 110 : 200} speed={20} />
      {!isMobile && <Pendulum className="kb-loading__pendulum" size={90} />}

      <div className="kb-loading__center">
        <div className="kb-loading__stage">
          <ClockFace percentage={snap.progress} size={isMobile ? 180 : 220} />
          <div
            className={`kb-loading__mascot${snap.mascotVisible ? ' kb-loading__mascot--visible' : ''}`}
            aria-hidden={!snap.mascotVisible}
          >
            <TickMascot
              size={isMobile ? 90 : 120}
              pose={snap.progress >= 100 ? 'cheer' : 'wave'}
              title="Tick, your clockwork archivist"
            />
          </div>
        </div>
        <p
          className={`kb-loading__message kb-loading__message--${snap.status}`}
          role="status"
          aria-live="polite"
          data-testid="loading-message"
        >
          {snap.message}
        </p>
        {snap.error && <p className="kb-loading__error">{snap.error}</p>}
        <Progress value={snap.progress} label="Loading" className="kb-loading__progress" />
        <p className="kb-visually-hidden">
          Stage {snap.stageIndex + 1} of {stages.length}
        </p>
        <ol className="kb-loading__dots" aria-hidden="true" data-testid="loading-stage-dots">
          {stages.map((s, i) => (
            <li
              key={s.message}
              className={i < snap.stageIndex ? 'is-done' : i === snap.stageIndex ? 'is-active' : undefined}
            />
          ))}
        </ol>
      </div>
    </div>
  );
}
