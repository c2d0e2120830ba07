// The TextEmbedder port: one model for documents, items and queries. Every vector carries the
// provider, model and dimension that made it, so a model change is seen (and re-embedded) instead
// of silently comparing vectors from two different spaces.

export interface EmbedOptions {
  signal?: AbortSignal;
}

export interface EmbeddingSpace {
  /** `local` (offline model shipped in npm) or `openai` (any OpenAI-compatible endpoint). */
  readonly provider: string;
  readonly model: string;
  /** Vector length; 0 only for an endpoint whose model size is not known until its first answer. */
  readonly dimensions: number;
}

export interface TextEmbedder extends EmbeddingSpace {
  /** One unit-length vector per text, in order. An empty text gets a zero vector. */
  embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** Load the model now (otherwise the first call does); resolves when ready. */
  warmUp?(): Promise<void>;
  close?(): Promise<void>;
}

/** A vector with the space it lives in (the proto's kaboodle.common.v1.Embedding). */
export interface TaggedVector extends EmbeddingSpace {
  values: Float32Array;
}

/** True when two vectors may be compared: same provider, model and dimension. */
export function sameSpace(a: EmbeddingSpace, b: EmbeddingSpace): boolean {
  return a.provider === b.provider && a.model === b.model && a.dimensions === b.dimensions;
}

export function l2normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm === 0 || !Number.isFinite(norm)) return v;
  for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm;
  return v;
}

export function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`vector sizes differ: ${a.length} vs ${b.length}`);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Cosine similarity (vectors need not be normalised). */
export function cosine(a: Float32Array, b: Float32Array): number {
  const d = dot(a, b);
  const na = Math.sqrt(dot(a, a));
  const nb = Math.sqrt(dot(b, b));
  return na === 0 || nb === 0 ? 0 : d / (na * nb);
}

/** Weighted mean of vectors, normalised to unit length. */
export function meanVector(vectors: Float32Array[], weights?: number[]): Float32Array {
  if (vectors.length === 0) throw new Error('meanVector needs at least one vector');
  const out = new Float32Array(vectors[0]!.length);
  vectors.forEach((v, i) => {
    const w = weights?.[i] ?? 1;
    for (let j = 0; j < out.length; j++) out[j] = out[j]! + v[j]! * w;
  });
  return l2normalize(out);
}
