// VectorLabels against a Map model: random adds and removes, label reuse, and restore.
import { describe, expect, it } from 'vitest';
import { VectorLabels } from './vector-labels.ts';

describe('VectorLabels', () => {
  it('finds every key after random adds and removes, and reuses freed labels', () => {
    const labels = new VectorLabels();
    const model = new Map<string, number>();
    let s = 7;
    const rand = (n: number) => {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      return s % n;
    };
    for (let step = 0; step < 40_000; step++) {
      const key = `owner:document:${rand(6_000)}`;
      if (model.has(key) && rand(3) > 0) {
        expect(labels.remove(key)).toBe(model.get(key));
        model.delete(key);
      } else if (!model.has(key)) {
        model.set(key, labels.add(key, rand(2)));
      }
    }
    expect(labels.size).toBe(model.size);
    for (const [key, label] of model) expect(labels.labelOf(key)).toBe(label);
    for (let i = 0; i < 6_000; i++) {
      const key = `owner:document:${i}`;
      expect(labels.labelOf(key)).toBe(model.get(key));
    }
    // labels stay dense: never more than the most keys ever held at once
    expect(labels.keys.length).toBeLessThanOrEqual(6_000);
    const back = VectorLabels.restore([...labels.keys], labels.parts.slice(0, labels.keys.length));
    for (const [key, label] of model) expect(back.labelOf(key)).toBe(label);
    expect(back.size).toBe(model.size);
    const reused = back.add('fresh', 1);
    expect(labels.keys[reused]).toBe('');
  });

  it('refuses inconsistent saved labels', () => {
    expect(() => VectorLabels.restore(['a', 'a'], new Uint8Array([0, 0]))).toThrow(/twice/);
    expect(() => VectorLabels.restore(['a', ''], new Uint8Array([0, 0]))).toThrow(/no key/);
    expect(() => VectorLabels.restore(['a'], new Uint8Array([255]))).toThrow(/no partition/);
  });
});
