// The in-memory vector graph, side by side: hnswlib-node f32 (the graph before issue 21, one point at a
// time) and OwnerVectorGraph on usearch f16 (batched, multi-threaded adds, one graph per entity type):
// build time, query p50/p95 at k 10, recall@10 against exact kNN, anonymous RSS growth and bytes per vector,
// and (usearch) the snapshot's save and load times. Each engine runs in its own child process
// (vector-graph.bench.ts --engine), so one's freed memory does not hide the other's.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export interface GraphCorpus {
  /** count × dims float32, row i the vector of item i. */
  vectors: Float32Array;
  dims: number;
  /** Each item's entity type. */
  types: string[];
  queries: Float32Array[];
}

export interface EngineFigures {
  engine: string;
  vectors: number;
  buildS: number;
  p50Ms: number;
  p95Ms: number;
  recall10: number;
  rssMb: number;
  bytesPerVector: number;
  saveMs?: number;
  loadMs?: number;
  snapshotMb?: number;
}

export const ENGINES = ['hnswlib f32', 'usearch f16'] as const;

/** Exact top-10 item indices of each query (cosine), by brute force over the corpus. */
export function exactTop10(c: GraphCorpus): number[][] {
  const count = c.vectors.length / c.dims;
  const norms = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    let n = 0;
    for (let d = 0; d < c.dims; d++) n += c.vectors[i * c.dims + d]! ** 2;
    norms[i] = Math.sqrt(n) || 1;
  }
  return c.queries.map((q) => {
    const best: { i: number; s: number }[] = [];
    for (let i = 0; i < count; i++) {
      let dot = 0;
      for (let d = 0; d < c.dims; d++) dot += q[d]! * c.vectors[i * c.dims + d]!;
      const s = dot / norms[i]!;
      if (best.length < 10 || s > best[9]!.s) {
        best.push({ i, s });
        best.sort((a, b) => b.s - a.s);
        if (best.length > 10) best.pop();
      }
    }
    return best.map((b) => b.i);
  });
}

/** Runs every engine in a child process on the corpus and returns their figures. */
export async function compareVectorGraphs(
  c: GraphCorpus,
  opts: { threads?: number; log?: (line: string) => void } = {},
): Promise<EngineFigures[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kaboodle-graph-bench-'));
  try {
    const t = performance.now();
    const exact = exactTop10(c);
    opts.log?.(`exact kNN of ${c.queries.length} queries: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const q = new Float32Array(c.queries.length * c.dims);
    c.queries.forEach((v, i) => q.set(v, i * c.dims));
    await writeFile(
      path.join(dir, 'vectors.f32'),
      new Uint8Array(c.vectors.buffer, c.vectors.byteOffset, c.vectors.byteLength),
    );
    await writeFile(path.join(dir, 'queries.f32'), new Uint8Array(q.buffer));
    await writeFile(path.join(dir, 'meta.json'), JSON.stringify({ dims: c.dims, types: c.types, exact }));
    const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'vector-graph.bench.ts');
    const out: EngineFigures[] = [];
    for (const engine of ENGINES) {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--expose-gc', script, '--engine', engine, '--data', dir, '--threads', String(opts.threads ?? 2)],
        // a fixed mmap threshold: freed large blocks go back to the system instead of being reused
        // unseen, so RSS growth is the engine's
        { maxBuffer: 1 << 20, env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072' } },
      );
      const line = stdout.trim().split('\n').pop()!;
      out.push(JSON.parse(line) as EngineFigures);
      opts.log?.(`${engine}: done`);
    }
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The figures as rows for the benches' table printer. */
export function figureRows(figs: EngineFigures[]): Record<string, string | number>[] {
  return figs.map((f) => ({
    graph: f.engine,
    vectors: f.vectors,
    'build s': f.buildS,
    'p50 ms': f.p50Ms,
    'p95 ms': f.p95Ms,
    'recall@10': f.recall10,
    'RssAnon +MB': f.rssMb,
    'B/vector': f.bytesPerVector,
    'save ms': f.saveMs ?? '–',
    'load ms': f.loadMs ?? '–',
    'snapshot MB': f.snapshotMb ?? '–',
  }));
}
