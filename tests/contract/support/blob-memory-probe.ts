// Child process for the blob-store contract's 20 MB cases: runs one streamed put or get in a quiet
// process (no test runner allocating beside it) and prints what it retained, as JSON on stdout.
// Usage: node --expose-gc --single-threaded-gc blob-memory-probe.ts '<json: {adapter, options, op, key,
// size, seed}>' (single-threaded: array buffers are freed within gc(), so the count after it is exact).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { createLocalBlobStore, createS3BlobStore } from '@kaboodle/platform';
import type { BlobStore } from '@kaboodle/platform';

export interface ProbeRequest {
  adapter: 'local' | 's3';
  options: Record<string, unknown>;
  op: 'put-known' | 'put-unknown' | 'get';
  key: string;
  size: number;
  seed: number;
}

export interface ProbeResult {
  ms: number;
  /** Peak growth of heap + array buffers still held after a GC, in bytes. */
  liveGrowth: number;
  rssGrowth: number;
  sha256: string;
  bytes: number;
}

const CHUNK = 64 * 1024;

export function chunkAt(i: number, n: number, seed: number): Buffer {
  const b = Buffer.alloc(n, (i * seed) % 251);
  if (n >= 4) b.writeUInt32BE(i, 0);
  return b;
}

/** A deterministic stream of `size` bytes in 64 KiB chunks; hashes what it emits. */
export function generatedStream(size: number, seed: number): { stream: Readable; sha256: () => string } {
  const hash = createHash('sha256');
  let i = 0;
  let off = 0;
  const stream = new Readable({
    read() {
      if (off >= size) return void this.push(null);
      const n = Math.min(CHUNK, size - off);
      off += n;
      const c = chunkAt(i++, n, seed);
      hash.update(c);
      this.push(c);
    },
  });
  return { stream, sha256: () => hash.digest('hex') };
}

async function main(): Promise<void> {
  const req = JSON.parse(process.argv[2] ?? '') as ProbeRequest;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const store: BlobStore =
    req.adapter === 'local'
      ? createLocalBlobStore(req.options as { root: string })
      : createS3BlobStore(req.options as unknown as Parameters<typeof createS3BlobStore>[0]);
  await store.ping(); // warm up connections and lazy init outside the measurement

  gc();
  const live = (): number => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const base = live();
  const baseRss = process.memoryUsage().rss;
  let peak = base;
  let peakRss = baseRss;
  // garbage (chunks already sent) does not count: a sample over 2 MB up is retaken after a full GC,
  // which in this quiet process frees unreachable buffers at once
  const timer = setInterval(() => {
    let v = live();
    if (v - base > 2 * 1024 * 1024) {
      gc();
      v = live();
    }
    peak = Math.max(peak, v);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 10);
  const t0 = performance.now();
  let sha256: string;
  let bytes: number;
  if (req.op === 'get') {
    const { body } = await store.get(req.key);
    const hash = createHash('sha256');
    bytes = 0;
    for await (const c of body) {
      hash.update(c as Buffer);
      bytes += (c as Buffer).length;
    }
    sha256 = hash.digest('hex');
  } else {
    const src = generatedStream(req.size, req.seed);
    const info = await store.put(req.key, src.stream, {
      contentType: 'application/octet-stream',
      ...(req.op === 'put-known' && { size: req.size }),
    });
    sha256 = src.sha256();
    bytes = info.size;
  }
  const ms = performance.now() - t0;
  clearInterval(timer);
  await store.close();
  const result: ProbeResult = { ms, liveGrowth: peak - base, rssGrowth: peakRss - baseRss, sha256, bytes };
  process.stdout.write(JSON.stringify(result));
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '\0')) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
