import { describe, expect, it } from 'vitest';
import { OwnerVectorGraph } from './vector-graph.ts';

const DIMS = 24;

/** A deterministic unit vector, distinct per i. */
function vector(i: number): Float32Array {
  const v = new Float32Array(DIMS).map((_, j) => (Math.sin(i * 12.9898 + j * 78.233) * 43758.5453) % 1);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function cosineDistance(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += a[i]! * b[i]!;
  return 1 - d;
}

/** Exact nearest keys of a query among the given vectors. */
function exact(all: Map<string, Float32Array>, q: Float32Array, k: number): string[] {
  return [...all]
    .map(([key, v]) => ({ key, d: cosineDistance(v, q) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, k)
    .map((x) => x.key);
}

describe('OwnerVectorGraph', () => {
  it('answers like an exact scan, with cosine distances, and grows past its first capacity', () => {
    const g = new OwnerVectorGraph(DIMS, {}, 16);
    const all = new Map<string, Float32Array>();
    for (let i = 0; i < 300; i++) {
      all.set(`k${i}`, vector(i));
      g.load(`k${i}`, i % 3 === 0 ? 'inventory_item' : 'document', vector(i));
    }
    g.markReady();
    expect(g.size).toBe(300);
    for (const qi of [5, 77, 123, 250]) {
      const q = vector(qi + 1000);
      const got = g.search(q, 10);
      expect(got.map((c) => c.key)).toEqual(exact(all, q, 10));
      expect(got[0]!.distance).toBeCloseTo(cosineDistance(all.get(got[0]!.key)!, q), 5);
    }
  });

  it('filters by entity type and excluded keys, and returns at most what it holds', () => {
    const g = new OwnerVectorGraph(DIMS);
    for (let i = 0; i < 40; i++) g.load(`k${i}`, i % 2 ? 'inventory_item' : 'document', vector(i));
    g.markReady();
    const items = g.search(vector(3), 100, { entityTypes: ['inventory_item'] });
    expect(items).toHaveLength(20);
    expect(items.every((c) => Number(c.key.slice(1)) % 2 === 1)).toBe(true);
    expect(items[0]!.key).toBe('k3');
    const without = g.search(vector(3), 5, { excludeKeys: ['k3'] });
    expect(without.map((c) => c.key)).not.toContain('k3');
    expect(without).toHaveLength(5);
    expect(new OwnerVectorGraph(DIMS).search(vector(1), 10)).toEqual([]);
  });

  it('applies writes: a new vector replaces the old one, a delete removes it, slots are reused', () => {
    const g = new OwnerVectorGraph(DIMS, {}, 16);
    for (let i = 0; i < 16; i++) g.load(`k${i}`, 'document', vector(i));
    g.markReady();
    g.applyWrite('k1', 'document', vector(500));
    expect(g.search(vector(500), 1)[0]).toMatchObject({ key: 'k1' });
    expect(g.search(vector(1), 16).map((c) => c.key)).toContain('k1');
    expect(g.search(vector(1), 1)[0]!.key).not.toBe('k1');
    g.applyWrite('k2', 'document', null);
    expect(g.size).toBe(15);
    expect(g.search(vector(2), 16).map((c) => c.key)).not.toContain('k2');
    g.applyWrite('k99', 'document', vector(99));
    expect(g.size).toBe(16);
    expect(g.search(vector(99), 1)[0]!.key).toBe('k99');
  });

  it('keeps writes made during the build over the older snapshot rows, and leaves zero vectors out', () => {
    const g = new OwnerVectorGraph(DIMS);
    g.applyWrite('k1', 'document', vector(600)); // written while building: newer than the snapshot
    g.applyWrite('k2', 'document', null); // deleted while building
    g.load('k1', 'document', vector(1));
    g.load('k2', 'document', vector(2));
    g.load('k3', 'document', vector(3));
    g.load('zero', 'document', new Float32Array(DIMS));
    g.markReady();
    expect(g.size).toBe(2);
    expect(g.search(vector(600), 1)[0]!.key).toBe('k1');
    expect(
      g
        .search(vector(2), 10)
        .map((c) => c.key)
        .sort(),
    ).toEqual(['k1', 'k3']);
    // after the build, loads of old rows are no longer expected, but writes still apply
    g.applyWrite('k1', 'document', vector(1));
    expect(g.search(vector(1), 1)[0]!.key).toBe('k1');
  });

  it('refuses a vector of another size', () => {
    const g = new OwnerVectorGraph(DIMS);
    expect(() => g.applyWrite('k', 'document', new Float32Array(DIMS + 1).fill(1))).toThrow(/dimension/);
  });
});
