import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DESKTOP_STAGES,
  ERROR_MESSAGE,
  MOBILE_STAGES,
  TIMEOUT_MESSAGE,
  UNKNOWN_ERROR,
  createLoadingSequence,
  type LoadingSnapshot,
} from './loading-sequence.ts';

function run(mobile: boolean, maxLoadMs?: number) {
  const updates: LoadingSnapshot[] = [];
  const effects: string[] = [];
  const onComplete = vi.fn();
  const seq = createLoadingSequence({
    mobile,
    ...(maxLoadMs ? { maxLoadMs } : {}),
    onUpdate: (s) => updates.push(s),
    onEffect: (e) => effects.push(e),
    onComplete,
  });
  seq.start();
  return { seq, updates, effects, onComplete, last: () => updates[updates.length - 1]! };
}

describe('loading sequence', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('has the exact desktop stage table of docs/product.md#states', () => {
    expect(DESKTOP_STAGES.map((s) => [s.progress, s.message, s.duration])).toEqual([
      [0, 'Initializing clockwork mechanisms...', 1000],
      [20, 'Assembling Art Deco gears...', 1500],
      [40, 'Calibrating pendulum oscillations...', 1200],
      [60, 'Activating neural networks...', 1800],
      [80, 'Synchronizing intelligence matrix...', 1000],
      [100, 'Kaboodle is ready!', 800],
    ]);
    expect(MOBILE_STAGES.map((s) => [s.progress, s.message, s.duration])).toEqual([
      [0, 'Waking up Kaboodle...', 1000],
      [50, 'Intelligence activated!', 2000],
      [100, 'Ready to assist!', 1000],
    ]);
  });

  it('walks the desktop stages on their durations, reveals the mascot at 60 and completes after the last', () => {
    const r = run(false);
    expect(r.last().message).toBe('Initializing clockwork mechanisms...');
    vi.advanceTimersByTime(1000);
    expect(r.last().progress).toBe(20);
    vi.advanceTimersByTime(1500 + 1200 - 1);
    expect(r.last().progress).toBe(40);
    expect(r.last().mascotVisible).toBe(false);
    vi.advanceTimersByTime(1);
    expect(r.last()).toMatchObject({ progress: 60, mascotVisible: true });
    expect(r.effects).toEqual(['chime']);
    vi.advanceTimersByTime(1800 + 1000);
    expect(r.last()).toMatchObject({ progress: 100, message: 'Kaboodle is ready!' });
    expect(r.effects).toEqual(['chime', 'sigh']);
    expect(r.onComplete).not.toHaveBeenCalled();
    vi.advanceTimersByTime(800);
    expect(r.onComplete).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(20_000); // the timeout fallback must not fire after completion
    expect(r.onComplete).toHaveBeenCalledTimes(1);
    expect(r.updates.some((u) => u.message === TIMEOUT_MESSAGE)).toBe(false);
  });

  it('forces completion on mobile after 4 s', () => {
    const r = run(true);
    expect(r.last().message).toBe('Waking up Kaboodle...');
    vi.advanceTimersByTime(3000);
    expect(r.last().message).toBe('Ready to assist!');
    expect(r.onComplete).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(r.onComplete).toHaveBeenCalledTimes(1);
  });

  it('falls back at the max load time: timeout text, 100 %, completes 1 s later', () => {
    const r = run(false, 2000);
    vi.advanceTimersByTime(2000);
    expect(r.last()).toMatchObject({ status: 'timeout', message: TIMEOUT_MESSAGE, progress: 100 });
    vi.advanceTimersByTime(999);
    expect(r.onComplete).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(r.onComplete).toHaveBeenCalledTimes(1);
  });

  it('shows recovery on an error and completes 2 s later, naming unknown errors', () => {
    const r = run(false);
    vi.advanceTimersByTime(500);
    r.seq.fail(undefined);
    expect(r.last()).toMatchObject({ status: 'error', message: ERROR_MESSAGE, error: UNKNOWN_ERROR });
    vi.advanceTimersByTime(1999);
    expect(r.onComplete).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(r.onComplete).toHaveBeenCalledTimes(1);
  });

  it('stops every timer on dispose', () => {
    const r = run(false);
    r.seq.dispose();
    vi.advanceTimersByTime(60_000);
    expect(r.onComplete).not.toHaveBeenCalled();
    expect(r.updates).toHaveLength(1);
  });
});
