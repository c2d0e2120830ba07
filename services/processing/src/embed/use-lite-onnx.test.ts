// USE lite on onnxruntime-node: the ONNX graph rebuilt from the tfjs weights gives the tfjs graph's
// vectors (both real models, side by side), and the hand-written protobuf writer produces models the
// real runtime loads, negative integers and float attributes included.
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { encodeOnnxModel, OnnxType } from './onnx-writer.ts';
import { cosine } from './text-embedder.ts';
import { loadUseLiteModel } from './use-lite-embedder.ts';
import { loadNativeUseLite } from './use-lite-onnx.ts';

describe('ONNX writer', () => {
  it('writes a model onnxruntime runs: initialisers (a negative int64 too), dynamic dimensions, int, negative int and float attributes', async () => {
    const model = encodeOnnxModel({
      name: 'probe',
      opset: 17,
      inputs: [{ name: 'x', type: OnnxType.FLOAT, dims: ['rows', 3] }],
      outputs: [{ name: 'y', type: OnnxType.FLOAT, dims: ['rows', 3] }],
      initializers: [
        { name: 'shift', dims: [3], data: Float32Array.from([1, 2, 3]) },
        { name: 'scale', dims: [3], data: Float32Array.from([1, 1, 1]) },
        { name: 'bias', dims: [3], data: Float32Array.from([0, 0, 0]) },
        { name: 'rows', dims: [2], data: BigInt64Array.from([-1n, 3n]) },
      ],
      nodes: [
        { op: 'Add', inputs: ['x', 'shift'], outputs: ['shifted'] },
        { op: 'Softmax', inputs: ['shifted'], outputs: ['soft'], attributes: { axis: -1 } },
        {
          op: 'LayerNormalization',
          inputs: ['soft', 'scale', 'bias'],
          outputs: ['normed'],
          attributes: { axis: -1, epsilon: { float: 0.5 } },
        },
        { op: 'Transpose', inputs: ['normed'], outputs: ['t'], attributes: { perm: [1, 0] } },
        { op: 'Transpose', inputs: ['t'], outputs: ['back'], attributes: { perm: [1, 0] } },
        { op: 'Reshape', inputs: ['back', 'rows'], outputs: ['y'] },
      ],
    });
    const session = await ort.InferenceSession.create(model);
    const x = Float32Array.from([0, 0, 0, 3, 2, 1]);
    const { y } = await session.run({ x: new ort.Tensor('float32', x, [2, 3]) });
    const expected: number[] = [];
    for (let r = 0; r < 2; r++) {
      const row = [0, 1, 2].map((c) => x[r * 3 + c]! + c + 1);
      const e = row.map((v) => Math.exp(v - Math.max(...row)));
      const soft = e.map((v) => v / e.reduce((a, b) => a + b, 0));
      const mean = soft.reduce((a, b) => a + b, 0) / 3;
      const variance = soft.reduce((a, b) => a + (b - mean) ** 2, 0) / 3;
      // epsilon 0.5 arrived as a float: a default (1e-5) would give unit variance instead.
      expected.push(...soft.map((v) => (v - mean) / Math.sqrt(variance + 0.5)));
    }
    expect(y!.dims).toEqual([2, 3]);
    Array.from(y!.data as Float32Array).forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 5));
    await session.release();
  });
});

describe('USE lite on onnxruntime-node', () => {
  const words =
    'The cooperative records every trade in a ledger kept at the market hall near the river'.split(' ');
  const texts = [
    'hello',
    'A red ceramic bowl with a glazed rim, handmade in Portugal.',
    'Café crème, naïve façade — 東京の市場 (Tokyo market) #42: €3.50!',
    Array.from({ length: 60 }, (_, i) => words[i % words.length]).join(' '),
    // More than the 128-token window: the native graph clips as the tfjs graph does.
    Array.from({ length: 400 }, (_, i) => words[(i * 5) % words.length]).join(' '),
  ];

  it('gives the vectors of the tfjs WASM graph', async () => {
    const native = await loadNativeUseLite();
    const wasm = await loadUseLiteModel('wasm');
    const a = await native.embed(texts);
    const b = await wasm.embed(texts);
    for (let i = 0; i < texts.length; i++) {
      const w = Float32Array.from(b[i]!);
      expect(cosine(a[i]!, w)).toBeGreaterThan(0.99999);
      let maxDiff = 0;
      for (let d = 0; d < 512; d++) maxDiff = Math.max(maxDiff, Math.abs(a[i]![d]! - w[d]!));
      expect(maxDiff).toBeLessThan(1e-4);
    }
    // Not a constant: different texts, different vectors.
    expect(cosine(a[0]!, a[3]!)).toBeLessThan(0.9);
    await native.close();
  }, 120_000);

  it('gives a text without tokens a zero vector rather than failing', async () => {
    const native = await loadNativeUseLite();
    const [v] = await native.embed(['']);
    expect(Array.from(v!).every((x) => x === 0)).toBe(true);
    await native.close();
  }, 60_000);

  it('is the runtime `auto` picks on Linux x64 and arm64 (the platforms whose binary the package ships)', async () => {
    if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) return;
    expect((await loadUseLiteModel('auto')).runtime).toBe('native');
    expect((await loadUseLiteModel('wasm')).runtime).toBe('wasm');
  }, 60_000);
});
