// docs/product.md#limits: a typed query runs once it has rested 300 ms.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { debounce, DEBOUNCE_MS } from './debounce.ts';

describe('debounce', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once, with the last arguments, 300 ms after the last call', () => {
    const fn = vi.fn();
    const d = debounce(fn);
    d('r');
    vi.advanceTimersByTime(200);
    d('re');
    vi.advanceTimersByTime(200);
    d('red');
    vi.advanceTimersByTime(DEBOUNCE_MS - 1);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledExactlyOnceWith('red');
  });

  it('can be cancelled or flushed', () => {
    const fn = vi.fn();
    const d = debounce(fn, 300);
    d(1);
    d.cancel();
    vi.advanceTimersByTime(1000);
    expect(fn).not.toHaveBeenCalled();
    d(2);
    d.flush();
    expect(fn).toHaveBeenCalledExactlyOnceWith(2);
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);
    d.flush();
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
