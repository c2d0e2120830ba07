// tfjs' WASM backend runs a matrix product on XNNPACK only when it is one plain 2-D product (batch
// 1, no transposes); anything else (a transformer's attention: [1, heads, tokens, depth] × its
// transpose) falls to a naive blocked loop in C++, measured at ~0.7 GMAC/s against ~10 for the
// dense layers. USE lite's attention spent ~30% of a full window's kernel time there.
//
// This wraps the backend's BatchMatMul kernel: a batched or transposed product of equal batch sizes
// becomes one transpose (when asked) and one 2-D product per batch entry on the fast path, copied
// into a single output. Everything else (broadcast batches, other dtypes, the plain case, fused
// bias or activation) goes to the original kernel unchanged. The wasm kernel caches an XNNPACK
// operator per right-hand tensor and frees it when that tensor is disposed, which each per-batch
// slice is straight after use.

interface TensorInfo {
  dataId: object;
  shape: number[];
  dtype: string;
}

interface WasmBackend {
  makeOutput(shape: number[], dtype: string): TensorInfo;
  disposeData(dataId: object): void;
  typedArrayFromHeap(info: TensorInfo): Float32Array;
}

interface KernelArgs {
  inputs: Record<string, TensorInfo>;
  backend: WasmBackend;
  attrs: Record<string, unknown>;
}

type KernelFunc = (args: KernelArgs) => TensorInfo;

interface KernelConfig {
  kernelName: string;
  backendName: string;
  kernelFunc: KernelFunc;
  setupFunc?: unknown;
  disposeFunc?: unknown;
}

/** The slice of tfjs-core this needs (the @energetic-ai/core re-export provides it). */
export interface TfKernelRegistry {
  getKernel(kernelName: string, backendName: string): KernelConfig | undefined;
  unregisterKernel(kernelName: string, backendName: string): void;
  registerKernel(config: KernelConfig): void;
}

const size = (shape: readonly number[]) => shape.reduce((n, d) => n * d, 1);

/** Products this thread split onto the fast path (for tests and benchmarks). */
export const wasmBatchedMatMulStats = { split: 0 };

/**
 * Replaces the WASM backend's BatchMatMul with the splitting version. Returns a function that puts
 * the original back. Call once per thread, after the backend is ready (its kernels are set up).
 */
export function installWasmBatchedMatMul(tf: TfKernelRegistry): () => void {
  const original = tf.getKernel('BatchMatMul', 'wasm');
  const transposeKernel = tf.getKernel('Transpose', 'wasm')?.kernelFunc;
  const reshapeKernel = tf.getKernel('Reshape', 'wasm')?.kernelFunc;
  if (!original || !transposeKernel || !reshapeKernel) {
    throw new Error('the tfjs WASM backend has no BatchMatMul/Transpose/Reshape kernel to wrap');
  }
  const matMul = original.kernelFunc;

  const split: KernelFunc = (args) => {
    const { a, b } = args.inputs as { a: TensorInfo; b: TensorInfo };
    const transposeA = args.attrs.transposeA === true;
    const transposeB = args.attrs.transposeB === true;
    const backend = args.backend;
    const batchA = size(a.shape.slice(0, -2));
    const batchB = size(b.shape.slice(0, -2));
    const plain = batchA === 1 && batchB === 1 && !transposeA && !transposeB;
    const fused = args.attrs.activation !== undefined || args.inputs.bias !== undefined;
    if (plain || fused || batchA !== batchB || a.dtype !== 'float32' || b.dtype !== 'float32') {
      return matMul(args);
    }
    const batch = batchA;
    wasmBatchedMatMulStats.split++;
    const temps: TensorInfo[] = [];
    const keep = (t: TensorInfo) => (temps.push(t), t);
    try {
      const as3 = (t: TensorInfo, n: number) =>
        keep(reshapeKernel({ inputs: { x: t }, backend, attrs: { shape: [n, ...t.shape.slice(-2)] } }));
      const flip = (t: TensorInfo) =>
        keep(transposeKernel({ inputs: { x: t }, backend, attrs: { perm: [0, 2, 1] } }));
      let left = as3(a, batch);
      let right = as3(b, batch);
      if (transposeA) left = flip(left);
      if (transposeB) right = flip(right);
      const [, m, k] = left.shape as [number, number, number];
      const [, k2, n] = right.shape as [number, number, number];
      if (k !== k2) return matMul(args); // let the original report the shape error
      // One batch entry as its own tensor: a copy on the WASM heap (tfjs' Slice kernel costs time
      // in proportion to the whole input, which made the split slower than the loop for 8 windows).
      const piece = (t: TensorInfo, i: number, shape: [number, number, number]) => {
        const len = shape[1] * shape[2];
        const p = backend.makeOutput(shape, 'float32');
        // Views on the WASM heap go stale when it grows: take them after the allocation.
        backend.typedArrayFromHeap(p).set(backend.typedArrayFromHeap(t).subarray(i * len, (i + 1) * len));
        return p;
      };
      const out = backend.makeOutput([batch, m, n], 'float32');
      try {
        for (let i = 0; i < batch; i++) {
          const ai = piece(left, i, [1, m, k]);
          const bi = piece(right, i, [1, k, n]);
          const oi = matMul({
            inputs: { a: ai, b: bi },
            backend,
            attrs: { transposeA: false, transposeB: false },
          });
          backend.typedArrayFromHeap(out).set(backend.typedArrayFromHeap(oi), i * m * n);
          backend.disposeData(ai.dataId);
          backend.disposeData(bi.dataId);
          backend.disposeData(oi.dataId);
        }
      } catch (err) {
        backend.disposeData(out.dataId);
        throw err;
      }
      const outerDims = (a.shape.length >= b.shape.length ? a.shape : b.shape).slice(0, -2);
      out.shape = [...outerDims, m, n];
      return out;
    } finally {
      for (const t of temps) backend.disposeData(t.dataId);
    }
  };

  tf.unregisterKernel('BatchMatMul', 'wasm');
  tf.registerKernel({ ...original, kernelFunc: split });
  return () => {
    tf.unregisterKernel('BatchMatMul', 'wasm');
    tf.registerKernel(original);
  };
}
