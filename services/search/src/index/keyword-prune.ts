// Safe dynamic pruning of a keyword query over the main segment (block-max MaxScore, as Lucene's
// MaxScoreBulkScorer): the same top k as scoring every posting, for a fraction of the work when common
// words have postings in most documents. Documents are taken in slot order, a window at a time: a
// window ends at the first block end among the query's lists, so each list has one block in it, whose
// largest impact (keyword-segments.ts) caps its scores there. A window whose bounds
// sum below the k-th best score so far is skipped without decoding. Otherwise the lists whose bounds
// together stay below that score are non-essential: only documents of the others are candidates, and a
// candidate's non-essential lists are probed (highest bound first) only while its score can still
// reach the k-th. A kept candidate's score is summed in the query's own list order, so it is the same
// float as the exhaustive sum; bounds are inflated a little, so a rounding never prunes a document
// that would have been kept. The delta segments are scored beforehand, exhaustively (they are small).
import { B, BLOCK, IMPACT_STEPS, K1, type MainSegment } from './keyword-segments.ts';
import type { TopK } from './top-k.ts';

/** Bounds are raised by this factor: their floats may round below a posting's own score otherwise. */
const INFLATE = 1 + 1e-9;
const EXHAUSTED = 0x7fffffff;
const LOG_BLOCK = Math.log2(BLOCK);
/**
 * A query whose candidates scored one by one exceed this share of the slots passed (checked from this
 * slot on) scores the rest exhaustively: its bounds are too loose to skip much (all its words common,
 * the k-th score near the sum of their maxima), and one by one costs more per posting than list by list.
 */
const GIVE_UP_AFTER = 4_096;
const GIVE_UP_SHARE = 0.25;

/** One scored list of the query: a term in a field, with the weight and idf it scores at. */
export interface QueryList {
  term: number;
  idf: number;
  lengths: Uint32Array;
  avg: number;
  /** The field (0 search text, 1 lead): main's blocks' impacts were made at its average then. */
  field: number;
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
  private readonly endPost: number;
  /** Window bound: the block that holds the window's documents, and its bound. */
  windowBlock = 0;
  bound = 0;
  /** A block's impact steps to its score bound: the idf, k1 + 1, the average's growth, rounding. */
  private readonly boundPerStep: number;
  private readonly main: MainSegment;
  readonly list: QueryList;
  /** The list's place in the query (scores are summed in this order). */
  readonly order: number;

  constructor(main: MainSegment, term: number, list: QueryList, order: number) {
    this.main = main;
    this.list = list;
    this.order = order;
    const growth = Math.max(1, list.avg / main.fieldAvgs[list.field]!);
    this.boundPerStep = ((list.idf * (K1 + 1) * growth) / IMPACT_STEPS) * INFLATE;
    this.firstBlock = main.blockStart[term]!;
    this.endBlock = main.blockStart[term + 1]!;
    this.block = this.firstBlock;
    this.firstPost = main.postStart[term]!;
    this.endPost = main.postStart[term + 1]!;
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

  /**
   * Moves to the first posting at or past from, and on while its score is below floor: true at one
   * that reaches it, false once past to. The hot loop of a query whose window has
   * one essential list: most postings end here, scored and dropped without a candidate's bookkeeping.
   */
  seek(from: number, to: number, floor: number): boolean {
    this.advance(from);
    const { idf, lengths, avg } = this.list;
    const main = this.main;
    const docs = main.docs;
    const tfs = main.tfs;
    let doc = this.doc;
    let p = this.p;
    let byte = this.byte;
    let reached = false;
    while (doc <= to) {
      const tf = tfs[p]!;
      const norm = tf + K1 * (1 - B + (B * lengths[doc]!) / avg);
      const s = (idf * tf * (K1 + 1)) / norm;
      if (s >= floor) {
        reached = true;
        break;
      }
      if (p + 1 === this.endPost) {
        doc = EXHAUSTED;
        break;
      }
      p++;
      let v = docs[byte++]!;
      let gap = v & 0x7f;
      for (let shift = 128; v >= 0x80; shift *= 128) {
        v = docs[byte++]!;
        gap += (v & 0x7f) * shift;
      }
      doc += gap;
    }
    this.doc = doc;
    this.p = p;
    this.byte = byte;
    if (doc !== EXHAUSTED) this.block = this.firstBlock + ((p - this.firstPost) >> LOG_BLOCK);
    else this.block = this.endBlock;
    return reached;
  }

  /**
   * Adds the scores of the postings at or past from to scores (hitSlots lists the slots first
   * scored): exhaustive scoring of the rest of the list. Returns the new count of hitSlots.
   */
  addRest(from: number, scores: Float64Array, hitSlots: Int32Array, hits: number): number {
    this.advance(from);
    if (this.doc === EXHAUSTED) return hits;
    const { idf, lengths, avg } = this.list;
    const docs = this.main.docs;
    const tfs = this.main.tfs;
    let doc = this.doc;
    let byte = this.byte;
    for (let p = this.p; ;) {
      const tf = tfs[p]!;
      const norm = tf + K1 * (1 - B + (B * lengths[doc]!) / avg);
      if (scores[doc] === 0) hitSlots[hits++] = doc;
      scores[doc]! += (idf * tf * (K1 + 1)) / norm;
      if (++p === this.endPost) break;
      let v = docs[byte++]!;
      let gap = v & 0x7f;
      for (let shift = 128; v >= 0x80; shift *= 128) {
        v = docs[byte++]!;
        gap += (v & 0x7f) * shift;
      }
      doc += gap;
    }
    this.doc = EXHAUSTED;
    this.block = this.endBlock;
    return hits;
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
    this.bound = this.main.blockImpact[b]! * this.boundPerStep;
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
  scratch: { scores: Float64Array; hitSlots: Int32Array },
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
  /** Candidates scored one by one: past a share of the slots passed, the bounds are not paying off. */
  let scoredOneByOne = 0;
  for (;;) {
    if (upTo >= GIVE_UP_AFTER && scoredOneByOne > upTo * GIVE_UP_SHARE) return finishExhaustive(upTo);
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
    if (essential === m - 1) {
      // one essential list: only its postings scoring past what the others could add are candidates
      const c = sorted[essential]!;
      const others = below[essential]!;
      while (c.seek(d, to, top.threshold - Math.abs(top.threshold) * 1e-9 - others)) {
        d = c.doc;
        if (isCandidate(d)) score(d, essential, m);
        d += 1;
      }
      return;
    }
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

  /** Scores every posting from slot `from` on, list by list in the query's order (the exhaustive sums). */
  function finishExhaustive(from: number): void {
    const { scores, hitSlots } = scratch;
    let hits = 0;
    for (const c of cursors) hits = c.addRest(from, scores, hitSlots, hits);
    for (let h = 0; h < hits; h++) {
      const slot = hitSlots[h]!;
      const total = scores[slot]!;
      scores[slot] = 0;
      if (isCandidate(slot)) top.offer(slot, total);
    }
  }

  function score(d: number, essential: number, m: number): void {
    scoredOneByOne++;
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
    if (!kept) {
      for (let i = 0; i < m; i++) contrib[sorted[i]!.order] = 0;
      return;
    }
    // summed in the query's order, as the exhaustive scorer adds them (adding 0 changes nothing)
    let total = 0;
    for (let j = 0; j < contrib.length; j++) {
      total += contrib[j]!;
      contrib[j] = 0;
    }
    top.offer(d, total);
  }
}
