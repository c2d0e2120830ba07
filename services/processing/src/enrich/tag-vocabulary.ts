// Hashtags as a controlled vocabulary that grows sensibly: every tag is normalised to lower-case
// kebab (`machine-learning`), a candidate that means an existing tag of the user (same words up to
// plural/inflection) becomes that tag, and popular existing tags are preferred to new ones.
import { clamp01, round2, type ScoredTag, type TagUse } from './document-enricher.ts';

/** `#MachineLearning`, `machine_learning`, `Machine learning` → `machine-learning`. */
export function normaliseTag(raw: string): string {
  return raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/^#+/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
}

/** A light stemmer for matching tags: `contracts`→`contract`, `policies`→`policy`, `learning`→`learn`. */
export function stemWord(w: string): string {
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ing') && w.length > 5) return w.slice(0, -3);
  if (w.endsWith('ed') && w.length > 4) return w.slice(0, -2);
  if (w.endsWith('es') && /(?:ch|sh|x|z)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) return w.slice(0, -1);
  return w;
}

/** Key under which two tags are the same tag. */
export function tagKey(tag: string): string {
  return normaliseTag(tag).split('-').filter(Boolean).map(stemWord).join('-');
}

export interface ReconcileOptions {
  /** At most this many tags (default 8). */
  max?: number;
  /** Tags below this relevancy are dropped (default 0.15). */
  minRelevancy?: number;
}

export interface ReconciledTag extends ScoredTag {
  /** True when the tag already existed in the user's vocabulary. */
  existing: boolean;
}

/**
 * Merge candidate tags into the user's vocabulary: candidates matching an existing tag take its
 * spelling and a boost (more for often-used tags), so a known tag beats a new one of similar
 * relevancy; duplicates keep their best score.
 */
export function reconcileTags(
  candidates: ScoredTag[],
  existing: TagUse[] = [],
  options: ReconcileOptions = {},
): ReconciledTag[] {
  const max = options.max ?? 8;
  const min = options.minRelevancy ?? 0.15;
  const vocab = new Map<string, TagUse>();
  for (const e of existing) {
    const norm = normaliseTag(e.tag);
    if (!norm) continue;
    const key = tagKey(norm);
    const prev = vocab.get(key);
    if (!prev || prev.count < e.count) vocab.set(key, { tag: norm, count: e.count });
  }
  const maxCount = Math.max(1, ...[...vocab.values()].map((v) => v.count));
  const out = new Map<string, ReconciledTag>();
  for (const c of candidates) {
    const norm = normaliseTag(c.tag);
    if (!norm || /^\d+$/.test(norm)) continue;
    const key = tagKey(norm);
    const known = vocab.get(key);
    const relevancy = known
      ? clamp01(c.relevancy + 0.15 + 0.1 * (Math.log1p(known.count) / Math.log1p(maxCount)))
      : clamp01(c.relevancy);
    const tag = known ? known.tag : norm;
    const prev = out.get(key);
    if (!prev || prev.relevancy < relevancy)
      out.set(key, { tag, relevancy: round2(relevancy), existing: !!known });
  }
  return [...out.values()]
    .filter((t) => t.relevancy >= min)
    .sort((a, b) => b.relevancy - a.relevancy || Number(b.existing) - Number(a.existing))
    .slice(0, max);
}

export { round2 };
