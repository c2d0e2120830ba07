// The pruned keyword query (keyword-prune.ts) against exhaustive scoring: the same keys and the same
// scores, to the bit, over Zipfian corpora with deletes, delta writes, a merge under way, word pairs,
// type filters, ties and k from 1 to 100; and planted documents a too-low block bound would lose.
import { describe, expect, it } from 'vitest';
import { OwnerKeywordIndex, wordPairs } from './keyword-index.ts';

type Doc = { type: string; text: string; lead: string };

function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VOCAB = Array.from({ length: 3_000 }, (_, i) => `v${i.toString(36)}q${'abcdefgh'[i % 8]}`);
/** Word ranks drawn from a Zipf law (s = 1) over VOCAB: a few words are in most documents. */
function zipf(rand: () => number): () => string {
  const weights = VOCAB.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((s, w) => s + w, 0);
  const cumulative: number[] = [];
  let run = 0;
  for (const w of weights) cumulative.push((run += w / total));
  return () => {
    const x = rand();
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return VOCAB[lo]!;
  };
}

function zipfCorpus(count: number, seed: number, prefix = 'd'): Map<string, Doc> {
  const rand = rng(seed);
  const word = zipf(rand);
  const docs = new Map<string, Doc>();
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 2 + Math.floor(rand() * rand() * 120) }, word);
    const text = words.join(' ');
    docs.set(`${prefix}-${(i * 7919) % count}`, {
      type: rand() < 0.25 ? 'inventory_item' : 'document',
      text: `${text}\n${wordPairs(text)}`,
      lead: words.slice(0, 6).join(' '),
    });
  }
  return docs;
}

/** 2–4 word queries mixing the most frequent words with rarer ones, and their pairs' order. */
function queries(seed: number, count: number): string[] {
  const rand = rng(seed);
  const word = zipf(rand);
  return Array.from({ length: count }, (_, i) => {
    const n = 1 + (i % 4);
    const words = Array.from({ length: n }, (_, j) =>
      j === 0 && i % 2 === 0 ? VOCAB[Math.floor(rand() * 5)]! : word(),
    );
    return words.join(' ');
  });
}

const KS = [1, 2, 3, 7, 10, 25, 100];

function expectPrunedExact(ix: OwnerKeywordIndex, qs: string[]): void {
  for (const [i, q] of qs.entries()) {
    const k = KS[i % KS.length]!;
    for (const types of [undefined, ['inventory_item']]) {
      const want = ix.searchExhaustive(q, k, types);
      expect(ix.search(q, k, types), `${q} k=${k} ${types ?? ''}`).toEqual(want);
    }
  }
}

describe('pruned keyword search', () => {
  it('returns exactly the exhaustive top k over main, a delta, deletes and a merge under way', () => {
    const docs = [...zipfCorpus(10_000, 3)]; // past 8,192 slots: pruneMain may give up on bounds there
    const ix = new OwnerKeywordIndex({ minDeltaPostings: 30_000 });
    const qs = queries(17, 120);
    // the build stopped while a merge is under way: main, the frozen delta and a fresh one answer
    let n = 0;
    while (!ix.segments().merging || ix.segments().main === 0) {
      const [key, d] = docs[n++]!;
      ix.load(key, d.type, d.text, d.lead);
    }
    for (let j = 0; j < 50; j++, n++)
      ix.load(docs[n]![0], docs[n]![1].type, docs[n]![1].text, docs[n]![1].lead);
    expect(ix.segments().merging).toBe(true);
    expectPrunedExact(ix, qs.slice(0, 40));
    for (; n < docs.length; n++) ix.load(docs[n]![0], docs[n]![1].type, docs[n]![1].text, docs[n]![1].lead);
    ix.markReady();
    ix.mergeNow();
    expect(ix.segments().delta).toBe(0);
    expectPrunedExact(ix, qs);
    // writes after the build: rewrites, new documents and deletes in the delta, dead slots in main
    let i = 0;
    for (const [key, d] of zipfCorpus(900, 4, 'late')) {
      ix.applyWrite(i % 3 === 0 ? `d-${i}` : key, d.type, d.text, d.lead);
      i++;
    }
    for (let j = 0; j < 10_000; j += 7) ix.remove(`d-${j}`);
    ix.close();
    expect(ix.segments().delta).toBeGreaterThan(0);
    expectPrunedExact(ix, qs);
    // merged: the removed documents' postings dropped, df and the blocks' bounds recomputed
    ix.mergeNow();
    expectPrunedExact(ix, qs.slice(40, 80));
  });

  it('keeps ties in key order at the k-th place', () => {
    const rand = rng(9);
    const texts = Array.from({ length: 25 }, (_, i) => `pine ${'cone '.repeat(i % 5)}${VOCAB[i]}`);
    const ix = new OwnerKeywordIndex({ minDeltaPostings: 5_000 });
    for (let i = 0; i < 4_000; i++) ix.load(`t${i}`, 'document', texts[Math.floor(rand() * texts.length)]!);
    ix.markReady();
    ix.mergeNow();
    for (const q of ['pine', 'pine cone', 'cone', `pine ${VOCAB[3]}`, `cone pine ${VOCAB[0]}`])
      for (const k of KS) expect(ix.search(q, k), `${q} ${k}`).toEqual(ix.searchExhaustive(q, k));
  });

  it('finds documents whose impact only a right block bound admits (most tf, shortest length)', () => {
    // a long dull list (tf 1, long texts), a few one-word texts first (they set the k-th score), and
    // stars (tf 2, three words) alone in their blocks further on: they outscore the one-word texts, but
    // a block bound from a smaller tf or a longer length would fall below those and skip them
    const ix = new OwnerKeywordIndex({ minDeltaPostings: 5_000 });
    const filler = Array.from({ length: 60 }, (_, i) => VOCAB[100 + (i % 40)]).join(' ');
    const stars = new Map([
      [1_000, 'heron heron egret'],
      [4_321, 'heron egret heron'],
      [7_777, 'heron heron plover'],
      [9_990, 'plover heron heron'],
    ]);
    for (let i = 0; i < 10_000; i++) {
      const text = stars.get(i) ?? (i >= 10 && i < 15 ? 'heron' : `heron ${filler}`);
      ix.load(`h${i}`, 'document', text);
    }
    ix.markReady();
    ix.mergeNow();
    for (const k of [1, 2, 3, 4]) {
      const got = ix.search('heron', k);
      expect(got, `k=${k}`).toEqual(ix.searchExhaustive('heron', k));
      expect(got.map((h) => Number(h.key.slice(1))).every((slot) => stars.has(slot))).toBe(true);
    }
    expect(ix.search('heron', 9).map((h) => h.key)).toEqual(
      ix.searchExhaustive('heron', 9).map((h) => h.key),
    );
  });

  it('scores the documents on both sides of every window edge, one or several lists essential', () => {
    // pruneMain reads main 2,048 slots at a time: planted documents sit on the edges (2,047 | 2,048
    // …), each matching several rare words (several lists essential) or one (one essential list),
    // among texts of common words; slot i is the i-th document loaded
    const rand = rng(21);
    const word = zipf(rand);
    const edges = [2_047, 2_048, 4_095, 4_096, 6_143, 6_144, 8_191, 8_192, 10_239];
    const planted = new Map(
      edges.map((slot, i) => [slot, i % 2 === 0 ? 'wren finch lark wren' : `finch ${VOCAB[i]}`]),
    );
    const ix = new OwnerKeywordIndex({ minDeltaPostings: 5_000 });
    for (let i = 0; i < 10_300; i++) {
      const common = Array.from({ length: 4 + Math.floor(rand() * 20) }, word).join(' ');
      const rare = rand() < 0.05 ? ` ${['wren', 'finch', 'lark'][i % 3]}` : '';
      const text = planted.get(i) ?? `${common}${rare}`;
      ix.load(`s${i}`, i % 4 === 0 ? 'inventory_item' : 'document', `${text}\n${wordPairs(text)}`);
    }
    ix.markReady();
    ix.mergeNow();
    const qs = ['wren finch lark', 'wren lark', 'finch', `finch ${VOCAB[1]}`, `lark ${VOCAB[0]} ${VOCAB[2]}`];
    expectPrunedExact(ix, qs.concat(queries(23, 30)));
    const best = ix.search('wren finch lark', 5).map((h) => Number(h.key.slice(1)));
    expect(best.every((slot) => planted.has(slot))).toBe(true);
  });
});
