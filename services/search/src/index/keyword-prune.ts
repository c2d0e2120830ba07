// Safe dynamic pruning of a keyword query over the main segment (block-max MaxScore, as Lucene's
// MaxScoreBulkScorer): the same top k as scoring every posting, for a fraction of the work when common
// words have postings in most documents. Documents are taken in slot order, a window at a time: a
// window ends at the first block end among the query's lists, so each list has one block in it, whose
// bound (largest tf, smallest length: keyword-segments.ts) caps its impact there. A window whose bounds
// sum below the k-th best score so far is skipped without decoding. Otherwise the lists whose bounds
// together stay below that score are non-essential: only documents of the others are candidates, and a
// candidate's non-essential lists are probed (highest bound first) only while its score can still
// reach the k-th. A kept candidate's score is summed in the query's own list order, so it is the same
// float as the exhaustive sum; bounds are inflated a little, so a rounding never prunes a document
// that would have been kept. The delta segments are scored beforehand, exhaustively (they are small).
import { BLOCK, type MainSegment } from './keyword-segments.ts';
import type { TopK } from './top-k.ts';

const K1 = 1.2;
const B = 0.75;
/** Bounds are raised by this factor: their floats may round below a posting's own score otherwise. */
const INFLATE = 1 + 1e-9;
const EXHAUSTED = 0x7fffffff;
const LOG_BLOCK = Math.log2(BLOCK);

/** One scored list of the query: a term in a field, with the weight and idf it scores at. */
export interface QueryList {
  term: number;
  idf: number;
  lengths: Uint32Array;
  avg: number;
}

/** Reads a term's postings in main forward, skipping whole blocks by their last slot. */
class Cursor {
  /** The current posting's slot (-1 before the first, EXHAUSTED after the last). */
  doc = -1;
  /** The current posting's index in tfs, its block, and the next byte to decode. */
  private p: number;
  block: number;
  private byte: number;
  private readonly firstBlock: number;
  readonly endBlock: number;
  private readonly firstPost: number;
  /** Window bound: the block that holds the window's documents, and its bound. */
  windowBlock = 0;
  bound = 0;
  private readonly main: MainSegment;
  readonly list: QueryList;
  /** The list's place in the query (scores are summed in this order). */
  readonly order: number;

  constructor(main: MainSegment, term: number, list: QueryList, order: number) {
    this.main = main;
    this.list = list;
    this.order = order;
    this.firstBlock = main.blockStart[term]!;
    this.endBlock = main.blockStart[term + 1]!;
    this.block = this.firstBlock;
    this.firstPost = main.postStart[term]!;
    this.p = this.firstPost - 1;
    this.byte = main.byteStart[term]!;
    if (this.firstBlock === this.endBlock) this.doc = EXHAUSTED;
  }

  /** Moves to the first posting at or past target. */
  advance(target: number): void {
    if (this.doc >= target) return;
    const main = this.main;
    const blockLast = main.blockLast;
    let b = this.block;
    if (blockLast[b]! < target) {
      do b++;
      while (b < this.endBlock && blockLast[b]! < target);
      this.block = b;
      if (b === this.endBlock) {
        this.doc = EXHAUSTED;
        return;
      }
      this.p = this.firstPost + (b - this.firstBlock) * BLOCK - 1;
      this.byte = main.blockByte[b]!;
      this.doc = blockLast[b - 1]!;
    }
    // the block's last slot is at or past target: decoding stops inside it
    const docs = main.docs;
    let doc = this.doc;
    let p = this.p;
    let byte = this.byte;
    while (doc < target) {
      p++;
      let v = docs[byte++]!;
      let gap = v & 0x7f;
      for (let shift = 128; v >= 0x80; shift *= 128) {
        v = docs[byte++]!;
        gap += (v & 0x7f) * shift;
      }
      doc = (doc < 0 ? 0 : doc) + gap;
    }
    this.doc = doc;
    this.p = p;
    this.byte = byte;
    this.block = this.firstBlock + ((p - this.firstPost) >> LOG_BLOCK);
  }

  /** The current posting's score, by the exhaustive scorer's own expression. */
  score(): number {
    const { idf, lengths, avg } = this.list;
    const tf = this.main.tfs[this.p]!;
    const norm = tf + K1 * (1 - B + (B * lengths[this.doc]!) / avg);
    return (idf * tf * (K1 + 1)) / norm;
  }

  /** Sets windowBlock and bound for a window starting at upTo; false when no posting is left there. */
  windowAt(upTo: number): boolean {
    const blockLast = this.main.blockLast;
    // the window only moves forward: the search resumes where the last one stopped
    let b = this.windowBlock > this.block ? this.windowBlock : this.block;
    while (b < this.endBlock && blockLast[b]! < upTo) b++;
    this.windowBlock = b;
    if (b === this.endBlock) {
      this.bound = 0;
      return false;
    }
    const { idf, avg } = this.list;
    const tf = this.main.blockMaxTf[b]!;
    const norm = tf + K1 * (1 - B + (B * this.main.blockMinLen[b]!) / avg);
    this.bound = ((idf * tf * (K1 + 1)) / norm) * INFLATE;
    return true;
  }
}

/**
 * Offers to top every main-segment document the query's lists match that could be among its k best
 * (each with its exact score); documents that isCandidate refuses (removed, other types) are skipped.
 */
export function pruneMain(
  main: MainSegment,
  lists: readonly QueryList[],
  top: TopK,
  isCandidate: (slot: number) => boolean,
): void {
  const cursors = lists
    .map((list, order) => (list.term < main.terms ? new Cursor(main, list.term, list, order) : undefined))
    .filter((c): c is Cursor => c !== undefined && c.doc !== EXHAUSTED);
  const n = cursors.length;
  if (n === 0) return;
  const contrib = new Float64Array(lists.length);
  /** Cursors of the window by bound ascending, and the sum of the bounds before each. */
  const sorted: Cursor[] = [];
  const below = new Float64Array(n + 1);
  let upTo = 0;
  for (;;) {
    let windowEnd = EXHAUSTED;
    let sum = 0;
    sorted.length = 0;
    for (const c of cursors) {
      if (!c.windowAt(upTo)) continue;
      const last = main.blockLast[c.windowBlock]!;
      if (last < windowEnd) windowEnd = last;
      sum += c.bound;
      // insertion by bound (a query has a handful of lists)
      let i = sorted.length;
      sorted.push(c);
      while (i > 0 && sorted[i - 1]!.bound > c.bound) {
        sorted[i] = sorted[i - 1]!;
        i--;
      }
      sorted[i] = c;
    }
    if (windowEnd === EXHAUSTED) return;
    if (sum >= top.threshold) scoreWindow(upTo, windowEnd);
    upTo = windowEnd + 1;
  }

  function scoreWindow(from: number, to: number): void {
    const m = sorted.length;
    below[0] = 0;
    for (let i = 0; i < m; i++) below[i + 1] = below[i]! + sorted[i]!.bound;
    // non-essential: the lists [0, essential) whose bounds together stay below the k-th score
    let essential = 0;
    while (essential < m && below[essential + 1]! < top.threshold) essential++;
    let d = from;
    for (;;) {
      let candidate = EXHAUSTED;
      for (let i = essential; i < m; i++) {
        const c = sorted[i]!;
        c.advance(d);
        if (c.doc < candidate) candidate = c.doc;
      }
      if (candidate > to) return;
      d = candidate;
      if (isCandidate(d)) score(d, essential, m);
      d += 1;
    }
  }

  function score(d: number, essential: number, m: number): void {
    let partial = 0;
    for (let i = essential; i < m; i++) {
      const c = sorted[i]!;
      if (c.doc === d) {
        const s = c.score();
        contrib[c.order] = s;
        partial += s;
      }
    }
    let kept = true;
    for (let i = essential - 1; i >= 0; i--) {
      if (partial * INFLATE + below[i + 1]! < top.threshold) {
        kept = false;
        break;
      }
      const c = sorted[i]!;
      c.advance(d);
      if (c.doc === d) {
        const s = c.score();
        contrib[c.order] = s;
        partial += s;
      }
    }
    // summed in the query's order, as the exhaustive scorer adds them (adding 0 changes nothing)
    let total = 0;
    for (let j = 0; j < contrib.length; j++) {
      total += contrib[j]!;
      contrib[j] = 0;
    }
    if (kept) top.offer(d, total);
  }
}
