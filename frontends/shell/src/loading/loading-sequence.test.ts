import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DESKTOP_STAGES,
  ERROR_MESSAGE,
  MOBILE_STAGES,
  TIMEOUT_MESSAGE,
  UNKNOWN_ERROR,
  WORK_LAST_BEAT_MS,
  WORK_STAGE_BEAT_MS,
  createLoadingSequence,
  type LoadingSnapshot,
} from './loading-sequence.ts';

function run(mobile: boolean, maxLoadMs?: number, pace?: 'work') {
  const updates: LoadingSnapshot[] = [];
  const effects: string[] = [];
  const onComplete = vi.fn();
  const seq = createLoadingSequence({
    mobile,
    ...(pace ? { pace } : {}),
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

  describe('paced by the work (after a sign-in)', () => {
    it('shows every desktop stage in order, each a short beat, and waits for the work', () => {
      const r = run(false, undefined, 'work');
      const messages = () => [...new Set(r.updates.map((u) => u.message))];
      vi.advanceTimersByTime(3000);
      // nothing done yet: the first stage stays
      expect(messages()).toEqual(['Initializing clockwork mechanisms...']);
      r.seq.work(60);
      expect(r.last().progress).toBe(20);
      vi.advanceTimersByTime(WORK_STAGE_BEAT_MS * 2);
      expect(r.last()).toMatchObject({ progress: 60, mascotVisible: true });
      vi.advanceTimersByTime(3000);
      expect(r.last().progress).toBe(60);
      r.seq.work(100);
      vi.advanceTimersByTime(WORK_STAGE_BEAT_MS * 2);
      expect(r.last()).toMatchObject({ progress: 100, message: 'Kaboodle is ready!' });
      expect(r.onComplete).not.toHaveBeenCalled();
      vi.advanceTimersByTime(WORK_LAST_BEAT_MS);
      expect(r.onComplete).toHaveBeenCalledTimes(1);
      expect(messages()).toEqual(DESKTOP_STAGES.map((s) => s.message));
      expect(r.effects).toEqual(['chime', 'sigh']);
    });

    it('when the work is already done, holds no longer than the beats', () => {
      const r = run(true, undefined, 'work');
      r.seq.work(100);
      vi.advanceTimersByTime(WORK_STAGE_BEAT_MS * 2 + WORK_LAST_BEAT_MS);
      expect(r.onComplete).toHaveBeenCalledTimes(1);
      expect(r.updates.map((u) => u.message).filter((m, i, a) => a.indexOf(m) === i)).toEqual(
        MOBILE_STAGES.map((s) => s.message),
      );
    });

    it('still falls back at the max load time when the work never ends', () => {
      const r = run(false, 3000, 'work');
      r.seq.work(40);
      vi.advanceTimersByTime(3000);
      expect(r.last()).toMatchObject({ status: 'timeout', message: TIMEOUT_MESSAGE });
      r.seq.work(100); // too late: the fallback finishes it
      vi.advanceTimersByTime(1000);
      expect(r.onComplete).toHaveBeenCalledTimes(1);
    });
  });
});
