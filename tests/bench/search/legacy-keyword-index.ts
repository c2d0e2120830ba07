// The memory index's BM25 keyword index as it was before issue 21 (per-term typed arrays, a per-document
// docTerms copy, Maps of terms and keys), kept for the index bench only: it runs beside the compact
// one in the same process so their memory and latency compare on one machine state.
import { analyse, LEAD_BOOST, PAIR_BOOST, wordPairs } from '@kaboodle/search';

const K1 = 1.2;
const B = 0.75;
const LEAD = '\u0001';

interface DocTerms {
  ids: Int32Array;
  tfs: Uint16Array;
}

interface Postings {
  docs: Int32Array;
  tfs: Uint16Array;
  length: number;
  /** Live documents holding the term (postings of removed documents stay until compaction). */
  df: number;
}

export interface KeywordCandidate {
  key: string;
  /** The BM25 score (not normalised). */
  score: number;
}

/**
 * Documents get slots; a removed document's slot is dead (its postings are skipped) until enough are
 * dead that the postings are rewritten without them. A key written since a build began is `touched`,
 * as in the vector graph: the builder's older snapshot rows must not overwrite it.
 */
export class LegacyKeywordIndex {
  state: 'building' | 'ready' = 'building';
  /** Term → id; postings by term id. */
  private readonly termIds = new Map<string, number>();
  private readonly postings: Postings[] = [];
  private readonly slotOf = new Map<string, number>();
  private keys: (string | undefined)[] = [];
  private types: string[] = [];
  private lengths = new Uint32Array(1_024);
  private leadLengths = new Uint32Array(1_024);
  private totalLeadLength = 0;
  /** Per slot: the term ids and frequencies, to take a document out of df and to compact. */
  private docTerms: (DocTerms | undefined)[] = [];
  private totalLength = 0;
  private dead = 0;
  private readonly touched = new Set<string>();
  /** Scores by slot, reused by every search (zeroed again after each): no large allocation per query. */
  private scratch = new Float64Array(0);

  get size(): number {
    return this.slotOf.size;
  }

  applyWrite(key: string, entityType: string, text: string | null, lead = ''): void {
    if (this.state === 'building') this.touched.add(key);
    this.put(key, entityType, text, lead);
  }

  load(key: string, entityType: string, text: string, lead = ''): void {
    if (this.touched.has(key)) return;
    this.put(key, entityType, text, lead);
  }

  markReady(): void {
    this.state = 'ready';
    this.touched.clear();
  }

  remove(key: string): void {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return;
    this.slotOf.delete(key);
    this.keys[slot] = undefined;
    this.totalLength -= this.lengths[slot]!;
    this.totalLeadLength -= this.leadLengths[slot]!;
    for (const id of this.docTerms[slot]!.ids) this.postings[id]!.df -= 1;
    this.docTerms[slot] = undefined;
    this.dead += 1;
    if (this.dead > 1_000 && this.dead > this.keys.length / 3) this.compact();
  }

  /** The k best documents by BM25 (any query term matches), best first; ties by key. */
  search(text: string, k: number, entityTypes?: readonly string[]): KeywordCandidate[] {
    const live = this.slotOf.size;
    if (live === 0 || k < 1) return [];
    const queryTerms = [...new Set(analyse(text))];
    const pairTerms = [...new Set(analyse(wordPairs(text)))];
    const avg = this.totalLength / live || 1;
    const leadAvg = this.totalLeadLength / live || 1;
    const types = entityTypes && entityTypes.length > 0 ? new Set(entityTypes) : undefined;
    if (this.scratch.length < this.keys.length) this.scratch = new Float64Array(this.keys.length * 2);
    const scores = this.scratch;
    const touched: number[] = [];
    const body = { prefix: '', lengths: this.lengths, avg, weight: 1 };
    const lead = { prefix: LEAD, lengths: this.leadLengths, avg: leadAvg, weight: LEAD_BOOST };
    // A query's word pairs score in the search text only (the lead holds no pairs), at PAIR_BOOST.
    const scored = [
      ...queryTerms.flatMap((term) => [body, lead].map((f) => ({ term, f, weight: f.weight }))),
      ...pairTerms.map((term) => ({ term, f: body, weight: PAIR_BOOST })),
    ];
    for (const { term, f, weight } of scored) {
      const id = this.termIds.get(f.prefix + term);
      const p = id === undefined ? undefined : this.postings[id];
      if (!p || p.df === 0) continue;
      const idf = weight * Math.log(1 + (live - p.df + 0.5) / (p.df + 0.5));
      for (let i = 0; i < p.length; i++) {
        const slot = p.docs[i]!;
        if (this.keys[slot] === undefined) continue;
        const tf = p.tfs[i]!;
        const norm = tf + K1 * (1 - B + (B * f.lengths[slot]!) / f.avg);
        if (scores[slot] === 0) touched.push(slot);
        scores[slot]! += (idf * tf * (K1 + 1)) / norm;
      }
    }
    // The k best in a min-heap of slots (worst at the root), so a common word's tens of thousands of
    // matches cost no allocation each: only a better match than the worst kept one enters.
    const keys = this.keys;
    const better = (a: number, sa: number, b: number, sb: number) =>
      sa > sb || (sa === sb && keys[a]! < keys[b]!);
    const heap: number[] = [];
    const heapScore: number[] = [];
    const siftDown = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let worst = i;
        if (l < heap.length && better(heap[worst]!, heapScore[worst]!, heap[l]!, heapScore[l]!)) worst = l;
        if (r < heap.length && better(heap[worst]!, heapScore[worst]!, heap[r]!, heapScore[r]!)) worst = r;
        if (worst === i) return;
        [heap[i], heap[worst]] = [heap[worst]!, heap[i]!];
        [heapScore[i], heapScore[worst]] = [heapScore[worst]!, heapScore[i]!];
        i = worst;
      }
    };
    for (const slot of touched) {
      const score = scores[slot]!;
      scores[slot] = 0;
      if (types && !types.has(this.types[slot]!)) continue;
      if (heap.length < k) {
        heap.push(slot);
        heapScore.push(score);
        // sift up: the worst goes to the root
        for (let i = heap.length - 1; i > 0;) {
          const parent = (i - 1) >> 1;
          if (!better(heap[parent]!, heapScore[parent]!, heap[i]!, heapScore[i]!)) break;
          [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
          [heapScore[i], heapScore[parent]] = [heapScore[parent]!, heapScore[i]!];
          i = parent;
        }
      } else if (better(slot, score, heap[0]!, heapScore[0]!)) {
        heap[0] = slot;
        heapScore[0] = score;
        siftDown(0);
      }
    }
    return heap
      .map((slot, i) => ({ key: keys[slot]!, score: heapScore[i]! }))
      .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  private put(key: string, entityType: string, text: string | null, lead: string): void {
    this.remove(key);
    if (text === null) return;
    const counts = new Map<number, number>();
    const count = (term: string) => {
      let id = this.termIds.get(term);
      if (id === undefined) {
        id = this.postings.length;
        this.termIds.set(term, id);
        this.postings.push({ docs: new Int32Array(4), tfs: new Uint16Array(4), length: 0, df: 0 });
      }
      counts.set(id, (counts.get(id) ?? 0) + 1);
    };
    let length = 0;
    for (const term of analyse(text)) {
      count(term);
      length += 1;
    }
    let leadLength = 0;
    for (const term of analyse(lead)) {
      count(LEAD + term);
      leadLength += 1;
    }
    const terms: DocTerms = {
      ids: Int32Array.from(counts.keys()),
      tfs: Uint16Array.from(counts.values(), (tf) => Math.min(tf, 65_535)),
    };
    const slot = this.keys.length;
    this.keys.push(key);
    this.types.push(entityType);
    this.docTerms.push(terms);
    if (slot >= this.lengths.length) {
      const grown = new Uint32Array(this.lengths.length * 2);
      grown.set(this.lengths);
      this.lengths = grown;
      const grownLead = new Uint32Array(this.lengths.length);
      grownLead.set(this.leadLengths);
      this.leadLengths = grownLead;
    }
    this.lengths[slot] = length;
    this.totalLength += length;
    this.leadLengths[slot] = leadLength;
    this.totalLeadLength += leadLength;
    this.slotOf.set(key, slot);
    this.post(slot, terms);
  }

  private post(slot: number, terms: DocTerms): void {
    for (let i = 0; i < terms.ids.length; i++) {
      const p = this.postings[terms.ids[i]!]!;
      if (p.length === p.docs.length) {
        const docs = new Int32Array(p.docs.length * 2);
        docs.set(p.docs);
        const tfs = new Uint16Array(p.tfs.length * 2);
        tfs.set(p.tfs);
        p.docs = docs;
        p.tfs = tfs;
      }
      p.docs[p.length] = slot;
      p.tfs[p.length] = terms.tfs[i]!;
      p.length += 1;
      p.df += 1;
    }
  }

  /** Rewrites slots and postings without the removed documents. */
  private compact(): void {
    const live = [...this.slotOf.entries()];
    const docTerms = this.docTerms;
    const types = this.types;
    const lengths = this.lengths;
    const leadLengths = this.leadLengths;
    for (const p of this.postings) {
      p.length = 0;
      p.df = 0;
    }
    this.slotOf.clear();
    this.keys = [];
    this.types = [];
    this.docTerms = [];
    this.lengths = new Uint32Array(Math.max(1_024, live.length * 2));
    this.leadLengths = new Uint32Array(this.lengths.length);
    this.totalLength = 0;
    this.totalLeadLength = 0;
    this.dead = 0;
    for (const [key, oldSlot] of live) {
      const terms = docTerms[oldSlot]!;
      const slot = this.keys.length;
      this.keys.push(key);
      this.types.push(types[oldSlot]!);
      this.docTerms.push(terms);
      this.lengths[slot] = lengths[oldSlot]!;
      this.totalLength += lengths[oldSlot]!;
      this.leadLengths[slot] = leadLengths[oldSlot]!;
      this.totalLeadLength += leadLengths[oldSlot]!;
      this.slotOf.set(key, slot);
      this.post(slot, terms);
    }
  }
}
