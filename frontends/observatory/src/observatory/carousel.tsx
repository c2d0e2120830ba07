// The observatory's middle: one view at a time on a card that flips in 3D between views, previous and
// next buttons, one round indicator per view, "View: n of m", and auto-rotation (6000 ms, wrapping)
// paused while hovered or focused, and off for people who prefer reduced motion.
import { useEffect, useState, type ReactNode } from 'react';
import { usePrefersReducedMotion } from '@kaboodle/kit';
import { AUTO_ROTATE_MS, stepIndex } from './observatory-model.ts';
import { useAutoRotate } from './use-auto-rotate.ts';

export interface CarouselView {
  id: string;
  title: string;
  render: () => ReactNode;
}

export function Carousel({
  views,
  intervalMs = AUTO_ROTATE_MS,
}: {
  views: CarouselView[];
  intervalMs?: number;
}) {
  const [index, setIndex] = useState(0);
  const [direction, setDirection] = useState<1 | -1>(1);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const reduced = usePrefersReducedMotion();
  const count = views.length;
  const current = Math.min(index, Math.max(0, count - 1));
  useEffect(() => {
    if (index >= count) setIndex(0);
  }, [index, count]);

  const go = (step: number) => {
    setDirection(step >= 0 ? 1 : -1);
    setIndex((i) => stepIndex(i, count, step));
  };
  const paused = hovered || focused || reduced;
  useAutoRotate({ count, paused, intervalMs, onTick: () => go(1) });
  const view = views[current];
  if (!view) return null;

  return (
    <section
      className="kb-carousel"
      aria-roledescription="carousel"
      aria-label="Observatory views"
      data-paused={paused}
      onPointerEnter={() => setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="kb-carousel__stage">
        <button
          type="button"
          className="kb-carousel__nav"
          aria-label="Previous view"
          onClick={() => go(-1)}
          disabled={count <= 1}
        >
          ‹
        </button>
        <div
          key={view.id}
          className={`kb-carousel__card kb-frame ${reduced ? '' : direction > 0 ? 'kb-flip-next' : 'kb-flip-prev'}`}
          role="group"
          aria-roledescription="slide"
          aria-label={`${view.title} (${current + 1} of ${count})`}
          data-view={view.id}
        >
          <h2 className="kb-carousel__title">{view.title}</h2>
          {view.render()}
        </div>
        <button
          type="button"
          className="kb-carousel__nav"
          aria-label="Next view"
          onClick={() => go(1)}
          disabled={count <= 1}
        >
          ›
        </button>
      </div>
      <div className="kb-carousel__foot">
        <div className="kb-carousel__dots" role="group" aria-label="Choose a view">
          {views.map((v, i) => (
            <button
              key={v.id}
              type="button"
              className="kb-carousel__dot"
              aria-label={v.title}
              aria-current={i === current}
              onClick={() => {
                setDirection(i >= current ? 1 : -1);
                setIndex(i);
              }}
            />
          ))}
        </div>
        <p className="kb-carousel__count" aria-live={paused ? 'polite' : 'off'}>
          View: {current + 1} of {count}
        </p>
      </div>
    </section>
  );
}
