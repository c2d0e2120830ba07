// Unit tests for the art: geometry is exact, components render the parts the spec names.
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import {
  CLOCK_RING_CIRCUMFERENCE,
  ClockFace,
  Gears,
  MascotWidget,
  OrnamentalFrame,
  Pendulum,
  Sparkles,
  TickMascot,
  clampPercent,
  gearPath,
  handAngles,
  ringOffset,
  sparklePositions,
} from './index.ts';

describe('clock geometry', () => {
  it('has the spec ring circumference of about 534.07 (r = 85)', () => {
    expect(CLOCK_RING_CIRCUMFERENCE).toBeCloseTo(534.07, 2);
  });

  it('leaves the whole ring undrawn at 0 %, half at 50 % and none at 100 %', () => {
    expect(ringOffset(0)).toBeCloseTo(534.07, 2);
    expect(ringOffset(50)).toBeCloseTo(267.04, 2);
    expect(ringOffset(100)).toBe(0);
  });

  it('clamps progress outside 0..100 and treats NaN as 0', () => {
    expect(clampPercent(-5)).toBe(0);
    expect(clampPercent(140)).toBe(100);
    expect(clampPercent(Number.NaN)).toBe(0);
  });

  it('points the hands at the time: 3:30:15 puts the minute hand at 181.5° and the hour hand at 105°', () => {
    const a = handAngles(new Date(2026, 0, 1, 15, 30, 15));
    expect(a.second).toBe(90);
    expect(a.minute).toBeCloseTo(181.5, 5);
    expect(a.hour).toBeCloseTo(105.125, 5);
  });
});

describe('gearPath', () => {
  it('draws one tooth per pitch and an axle hole sub-path', () => {
    const d = gearPath({ cx: 50, cy: 50, outer: 40, inner: 34, teeth: 12, hole: 6 });
    expect(d.match(/A34 34/g)).toHaveLength(12);
    expect(d.match(/M/g)).toHaveLength(2);
    expect(d).not.toContain('NaN');
  });

  it('rejects impossible gears with a clear error', () => {
    expect(() => gearPath({ cx: 0, cy: 0, outer: 10, inner: 12, teeth: 8 })).toThrow(/outer > inner/);
    expect(() => gearPath({ cx: 0, cy: 0, outer: 10, inner: 8, teeth: 2 })).toThrow(/at least 3 teeth/);
  });
});

describe('sparklePositions', () => {
  it('spreads n sparkles inside the box', () => {
    const spots = sparklePositions(8);
    expect(spots).toHaveLength(8);
    for (const s of spots) {
      expect(s.x).toBeGreaterThanOrEqual(0);
      expect(s.x).toBeLessThanOrEqual(100);
      expect(s.y).toBeGreaterThanOrEqual(0);
      expect(s.y).toBeLessThanOrEqual(100);
    }
    expect(new Set(spots.map((s) => `${s.x},${s.y}`)).size).toBe(8);
  });

  it('refuses a negative or fractional count', () => {
    expect(() => sparklePositions(-1)).toThrow(RangeError);
    expect(() => sparklePositions(2.5)).toThrow(RangeError);
  });
});

describe('art components', () => {
  it('ClockFace shows the percentage, the label "Loading" and a ring dashed to the progress', () => {
    const html = renderToStaticMarkup(<ClockFace percentage={25} time={new Date(2026, 0, 1, 6, 0, 0)} />);
    expect(html).toContain('25%');
    expect(html).toContain('aria-label="Loading"');
    expect(html).toContain('aria-valuenow="25"');
    expect(html).toContain('stroke-dasharray="534.07"');
    expect(html).toContain(`stroke-dashoffset="${(534.0707 * 0.75).toFixed(2)}"`);
    // 6 o'clock: the hour hand points straight down
    expect(html).toMatch(/transform="rotate\(180\.0 100 100\)" data-hand="hour"/);
  });

  it('Sparkles renders exactly the requested number of sparkles, and nothing for 0', () => {
    const html = renderToStaticMarkup(<Sparkles count={8} />);
    expect(html.match(/class="kb-sparkle"/g)).toHaveLength(8);
    expect(renderToStaticMarkup(<Sparkles count={0} />)).toBe('');
  });

  it('TickMascot is a labelled image by default and decoration when the title is empty', () => {
    const labelled = renderToStaticMarkup(<TickMascot pose="wave" eyewear="spectacles" />);
    expect(labelled).toContain('role="img"');
    expect(labelled).toContain('Tick, the Kaboodle clockwork archivist');
    expect(labelled).toContain('data-pose="wave"');
    const decorative = renderToStaticMarkup(<TickMascot title="" pose="reading" />);
    expect(decorative).toContain('aria-hidden="true"');
    expect(decorative).not.toContain('role="img"');
  });

  it('gives every SVG gradient id a unique, url-safe name per instance', () => {
    const html = renderToStaticMarkup(
      <>
        <Gears />
        <Gears />
      </>,
    );
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
  });

  it('OrnamentalFrame draws four corners around its children with the title plate', () => {
    const html = renderToStaticMarkup(
      <OrnamentalFrame as="section" title="Archive" data-testid="f">
        <p>inside</p>
      </OrnamentalFrame>,
    );
    expect(html).toMatch(/<section class="kb-ornament /);
    expect(html.match(/class="kb-ornament-corner /g)).toHaveLength(4);
    expect(html).toContain('Archive');
    expect(html).toContain('<p>inside</p>');
    expect(html).toContain('data-testid="f"');
  });

  it('Pendulum and MascotWidget render (widget closed before it opens itself)', () => {
    expect(renderToStaticMarkup(<Pendulum title="Pendulum" />)).toContain('kb-art-pendulum-arm');
    const widget = renderToStaticMarkup(<MascotWidget />);
    expect(widget).toContain('data-open="false"');
    expect(widget).toContain('Open Tick’s door');
  });
});
