// @vitest-environment happy-dom
// useKeyedValue keeps a query rebuilt on every render from loading again: an effect that depends on
// it runs once per key, not once per render (the vault's and the inventory's lists rely on this).
import { afterEach, describe, expect, it } from 'vitest';
import { useEffect } from 'react';
import { cleanup, render } from '@testing-library/react';
import { useKeyedValue } from './use-keyed-value.ts';

afterEach(cleanup);

function Loader({ category, runs }: { category: string; runs: string[] }) {
  const query = { category, sort: 'title' }; // a new object every render, as screens build them
  const current = useKeyedValue(query, JSON.stringify(query));
  useEffect(() => {
    runs.push(current.category);
  }, [current, runs]);
  return null;
}

describe('useKeyedValue', () => {
  it('hands back the same object while the key is the same, and the new one for a new key', () => {
    const runs: string[] = [];
    const view = render(<Loader category="tax" runs={runs} />);
    view.rerender(<Loader category="tax" runs={runs} />);
    view.rerender(<Loader category="tax" runs={runs} />);
    expect(runs).toEqual(['tax']);
    view.rerender(<Loader category="bills" runs={runs} />);
    view.rerender(<Loader category="bills" runs={runs} />);
    expect(runs).toEqual(['tax', 'bills']);
  });
});
