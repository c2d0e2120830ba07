// The split BatchMatMul kernel against tfjs' own WASM kernel: same products for batched, transposed
// and broadcast shapes, no tensor left behind, and USE lite's vectors unchanged with it installed.
import * as tf from '@energetic-ai/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadUseLiteModel, setUseLiteSplitMatMul } from './use-lite-embedder.ts';
import { wasmBatchedMatMulStats } from './wasm-batched-matmul.ts';

const products: Array<[number[], number[], boolean, boolean]> = [
  [[4, 5, 7], [4, 7, 3], false, false],
  [[1, 4, 6, 8], [1, 4, 9, 8], false, true], // attention scores: Q · Kᵀ
  [[2, 3, 8, 6], [2, 3, 8, 5], true, false],
  [[3, 6, 4], [3, 5, 6], true, true],
  [[1, 6, 4], [1, 4, 5], false, false], // plain 2-D product: the original fast path
  [[3, 6, 4], [1, 4, 5], false, false], // broadcast batch: the original kernel
];

function product(
  a: tf.Tensor,
  b: tf.Tensor,
  ta: boolean,
  tb: boolean,
): { shape: number[]; values: Float32Array } {
  const out = tf.matMul(a, b, ta, tb);
  const result = { shape: out.shape, values: out.dataSync() as Float32Array };
  out.dispose();
  return result;
}

describe('split BatchMatMul on the tfjs WASM backend', () => {
  beforeAll(async () => {
    await loadUseLiteModel('wasm'); // sets the backend up (and installs the split kernel)
  }, 60_000);
  afterAll(async () => {
    await setUseLiteSplitMatMul(true);
  });

  it.each(products)(
    '%j × %j (transposeA %s, transposeB %s) equals the original kernel',
    async (sa, sb, ta, tb) => {
      const a = tf.randomNormal(sa, 0, 1, 'float32', 7);
      const b = tf.randomNormal(sb, 0, 1, 'float32', 11);
      await setUseLiteSplitMatMul(false);
      const want = product(a, b, ta, tb);
      await setUseLiteSplitMatMul(true);
      const splitBefore = wasmBatchedMatMulStats.split;
      const got = product(a, b, ta, tb);
      const split = wasmBatchedMatMulStats.split - splitBefore;
      a.dispose();
      b.dispose();
      expect(got.shape).toEqual(want.shape);
      let worst = 0;
      for (let i = 0; i < want.values.length; i++)
        worst = Math.max(worst, Math.abs(got.values[i]! - want.values[i]!));
      expect(worst).toBeLessThan(1e-4);
      const batched = sa.slice(0, -2).reduce((n, d) => n * d, 1) > 1 || ta || tb;
      const broadcast = sa.slice(0, -2).join() !== sb.slice(0, -2).join();
      expect(split).toBe(batched && !broadcast ? 1 : 0);
    },
  );

  it('leaves no tensor or WASM memory behind', async () => {
    await setUseLiteSplitMatMul(true);
    const a = tf.randomNormal([1, 4, 32, 16]);
    const b = tf.randomNormal([1, 4, 32, 16]);
    product(a, b, false, true);
    const before = tf.memory();
    for (let i = 0; i < 5; i++) product(a, b, false, true);
    const after = tf.memory();
    a.dispose();
    b.dispose();
    expect(after.numTensors).toBe(before.numTensors);
    expect(after.numBytes).toBe(before.numBytes);
  });

  it('gives USE lite the same vectors, through the split path', async () => {
    const model = await loadUseLiteModel('wasm');
    const texts = [
      'The archive holds hand-thrown bowls, glaze notebooks and kiln logs. '.repeat(6),
      'Pottery archive, glaze, kiln',
    ];
    await setUseLiteSplitMatMul(false);
    const want = await model.embed(texts);
    await setUseLiteSplitMatMul(true);
    const before = wasmBatchedMatMulStats.split;
    const got = await model.embed(texts);
    expect(wasmBatchedMatMulStats.split - before).toBeGreaterThan(0);
    for (let t = 0; t < texts.length; t++) {
      const dot = Array.from(want[t]!).reduce((s, x, i) => s + x * got[t]![i]!, 0);
      expect(dot).toBeGreaterThan(0.99999);
    }
    const tensors = tf.memory().numTensors;
    await model.embed(texts);
    expect(tf.memory().numTensors).toBe(tensors);
  }, 60_000);
});
