// Safe dynamic pruning of a keyword query over the main segment (block-max MaxScore, as Lucene's
// MaxScoreBulkScorer): the same top k as scoring every posting, for a fraction of the work when common
// words have postings in most documents. Documents are taken in slot order, WINDOW slots at a time;
// in a window each list's bound is the largest impact (keyword-segments.ts) of its blocks there. A
// window whose bounds sum below the k-th best score so far is skipped without decoding. Otherwise the
// lists whose bounds together stay below that score are non-essential: only documents of the others
// are candidates. With one essential list its postings are read one by one and only those that can
// reach the k-th are candidates; with several, their postings in the window are scored list by list
// into small buffers (as Lucene's inner windows: no per-document merge of cursors), then each
// document seen is a candidate. A candidate's non-essential lists are probed (highest bound first)
// only while its score can still reach the k-th. A kept candidate's score is summed in the query's
// own list order, so it is the same float as the exhaustive sum; bounds are inflated a little, so a
// rounding never prunes a document that would have been kept. The delta segments are scored
// beforehand, exhaustively (they are small).
import { B, BLOCK, IMPACT_STEPS, K1, type MainSegment } from './keyword-segments.ts';
import type { TopK } from './top-k.ts';

/** Bounds are raised by this factor: their floats may round below a posting's own score otherwise. */
const INFLATE = 1 + 1e-9;
const EXHAUSTED = 0x7fffffff;
const LOG_BLOCK = Math.log2(BLOCK);
/**
 * A query whose candidates in a window exceed this share of its slots (checked from this slot on, once
 * the k-th score has risen from its first guesses) scores the rest exhaustively: its bounds are too
 * loose to skip much (all its words common, the k-th score near the sum of their maxima), and
 * candidates cost more per posting than a plain pass list by list. Counted over the whole query
 * instead, the first windows (every document a candidate until the heap holds k) gave up queries
 * that prune well later on.
 */
const GIVE_UP_AFTER = 8_192;
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
  /** The list's idf, lengths and average length (fields of their own: read per posting). */
  private readonly idf: number;
  private readonly lengths: Uint32Array;
  private readonly avg: number;
  /** The list's place in the query (scores are summed in this order). */
  readonly order: number;
  /** The score of the posting seek() stopped at. */
  seekScore = 0;

  constructor(main: MainSegment, term: number, list: QueryList, order: number) {
    this.main = main;
    this.idf = list.idf;
    this.lengths = list.lengths;
    this.avg = list.avg;
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
    const { idf, lengths, avg } = this;
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
        this.seekScore = s;
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
   * Scores this list's postings in [from, to] into the window's buffers (offsets from `from`): its
   * own score at contrib[base + offset], their sum so far at sums[offset], and each offset first
   * seen set in the bitset `seen`. Leaves the cursor at the first posting past to.
   */
  accumulate(
    from: number,
    to: number,
    contrib: Float64Array,
    base: number,
    sums: Float64Array,
    seen: Int32Array,
  ): void {
    this.advance(from);
    let doc = this.doc;
    if (doc > to) return;
    const { idf, lengths, avg } = this;
    const main = this.main;
    const docs = main.docs;
    const tfs = main.tfs;
    let p = this.p;
    let byte = this.byte;
    for (;;) {
      const tf = tfs[p]!;
      const norm = tf + K1 * (1 - B + (B * lengths[doc]!) / avg);
      const s = (idf * tf * (K1 + 1)) / norm;
      const o = doc - from;
      contrib[base + o] = s;
      sums[o]! += s;
      seen[o >> 5]! |= 1 << (o & 31);
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
      if (doc > to) break;
    }
    this.doc = doc;
    this.p = p;
    this.byte = byte;
    if (doc !== EXHAUSTED) this.block = this.firstBlock + ((p - this.firstPost) >> LOG_BLOCK);
    else this.block = this.endBlock;
  }

  /**
   * Adds the scores of the postings at or past from to scores (hitSlots lists the slots first
   * scored): exhaustive scoring of the rest of the list. Returns the new count of hitSlots.
   */
  addRest(from: number, scores: Float64Array, hitSlots: Int32Array, hits: number): number {
    this.advance(from);
    if (this.doc === EXHAUSTED) return hits;
    const { idf, lengths, avg } = this;
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

  /** Sets bound to the largest bound of the blocks that may hold postings in [from, to] (0: none left). */
  boundOver(from: number, to: number): number {
    const blockLast = this.main.blockLast;
    const impact = this.main.blockImpact;
    let b = this.windowBlock > this.block ? this.windowBlock : this.block;
    while (b < this.endBlock && blockLast[b]! < from) b++;
    this.windowBlock = b;
    if (b === this.endBlock) return (this.bound = 0);
    let max = impact[b]!;
    // a later block starts past the one before's last slot: it may hold postings here while that is < to
    for (let c = b + 1; c < this.endBlock && blockLast[c - 1]! < to; c++)
      if (impact[c]! > max) max = impact[c]!;
    return (this.bound = max * this.boundPerStep);
  }

  /** The score of the list's posting of slot d (0 when it has none), by the exhaustive scorer's expression. */
  scoreAt(d: number): number {
    this.advance(d);
    if (this.doc !== d) return 0;
    const tf = this.main.tfs[this.p]!;
    const norm = tf + K1 * (1 - B + (B * this.lengths[d]!) / this.avg);
    return (this.idf * tf * (K1 + 1)) / norm;
  }
}

/**
 * Slots per window (a power of two). Measured at 1M items on the product's queries against
 * 512–4,096 (tests/bench/search/keyword-prune.bench.ts): 1,024 and 2,048 tie; smaller windows pay
 * their per-window work more often, larger ones bound the lists more loosely.
 */
const WINDOW = 2048;
const LOG_WINDOW = Math.log2(WINDOW);
/** The window's per-list scores, sums and seen bits, kept between queries (zeroed as they are read). */
let windowScratch = {
  contrib: new Float64Array(0),
  sums: new Float64Array(WINDOW),
  seen: new Int32Array(WINDOW >> 5),
};

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
  if (cursors.length === 0) return;
  const listCount = lists.length;
  if (windowScratch.contrib.length < listCount * WINDOW)
    windowScratch = { ...windowScratch, contrib: new Float64Array(listCount * WINDOW) };
  const { contrib, sums, seen } = windowScratch;
  /** The window's lists by bound ascending, and the sum of the bounds before each. */
  const sorted: Cursor[] = [];
  const below = new Float64Array(cursors.length + 1);
  /** The window's non-essential lists in the order a candidate probes them, the sum of the bounds of
   *  probes[j..] at rest[j], and a candidate's scores from them (written out only if it is kept). */
  const probes: Cursor[] = [];
  const rest = new Float64Array(cursors.length + 1);
  const probeScores = new Float64Array(cursors.length);
  let last = 0;
  for (const c of cursors) last = Math.max(last, main.blockLast[c.endBlock - 1]!);
  let essential = 0;
  let m = 0;
  /** Candidates considered in the window (past a share of its slots, the bounds are not paying off). */
  let considered = 0;
  for (let from = 0; from <= last; from += WINDOW) {
    if (from >= GIVE_UP_AFTER && considered > WINDOW * GIVE_UP_SHARE) return finishExhaustive(from);
    considered = 0;
    const to = from + WINDOW - 1;
    let sum = 0;
    sorted.length = 0;
    for (const c of cursors) {
      if (c.boundOver(from, to) === 0) continue;
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
    if (sorted.length === 0 || sum < top.threshold) continue;
    m = sorted.length;
    below[0] = 0;
    for (let i = 0; i < m; i++) below[i + 1] = below[i]! + sorted[i]!.bound;
    // non-essential: the lists [0, essential) whose bounds together stay below the k-th score
    essential = 0;
    while (essential < m && below[essential + 1]! < top.threshold) essential++;
    orderProbes();
    if (essential === m - 1) {
      // one essential list: only its postings scoring past what the others could add are candidates
      const c = sorted[essential]!;
      const others = below[essential]!;
      let d = from;
      while (c.seek(d, to, top.threshold - Math.abs(top.threshold) * 1e-9 - others)) {
        d = c.doc;
        consider(d, d - from, c.seekScore, c);
        d += 1;
      }
      continue;
    }
    // several: their postings in the window scored list by list, then each document seen, in order
    for (let i = essential; i < m; i++) {
      const c = sorted[i]!;
      c.accumulate(from, to, contrib, c.order << LOG_WINDOW, sums, seen);
    }
    for (let w = 0; w < WINDOW >> 5; w++) {
      let bits = seen[w]!;
      if (bits === 0) continue;
      seen[w] = 0;
      while (bits !== 0) {
        const low = bits & -bits;
        bits ^= low;
        const o = (w << 5) + 31 - Math.clz32(low);
        const partial = sums[o]!;
        sums[o] = 0;
        consider(from + o, o, partial, undefined);
      }
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
      // most fall below the k-th score: no call for them (one equal to it may still enter by key)
      if (total >= top.threshold && isCandidate(slot)) top.offer(slot, total);
    }
  }

  /** The non-essential lists in the order a candidate probes them: highest bound first. */
  function orderProbes(): void {
    probes.length = 0;
    for (let i = essential - 1; i >= 0; i--) probes.push(sorted[i]!);
    rest[probes.length] = 0;
    for (let j = probes.length - 1; j >= 0; j--) rest[j] = rest[j + 1]! + probes[j]!.bound;
  }

  /**
   * A document at offset o of the window that the essential lists scored partial (one list: the
   * seeking one, its score not yet written): the others probed while it can still reach the k-th
   * score, then offered with its exact sum.
   */
  function consider(d: number, o: number, partial: number, seeking: Cursor | undefined): void {
    considered++;
    let kept = isCandidate(d);
    const n = probes.length;
    for (let j = 0; kept && j < n; j++) {
      if (partial * INFLATE + rest[j]! < top.threshold) {
        kept = false;
        break;
      }
      const s = probes[j]!.scoreAt(d);
      probeScores[j] = s;
      partial += s;
    }
    if (kept && partial * INFLATE < top.threshold) kept = false;
    if (!kept) {
      // what accumulate wrote for the essential lists (a seeking list and the probes wrote nothing)
      if (!seeking) for (let i = essential; i < m; i++) contrib[(sorted[i]!.order << LOG_WINDOW) + o] = 0;
      return;
    }
    if (seeking) contrib[(seeking.order << LOG_WINDOW) + o] = seeking.seekScore;
    for (let j = 0; j < n; j++) contrib[(probes[j]!.order << LOG_WINDOW) + o] = probeScores[j]!;
    // summed in the query's order, as the exhaustive scorer adds them (adding 0 changes nothing)
    let total = 0;
    for (let j = 0, at = o; j < listCount; j++, at += WINDOW) {
      total += contrib[at]!;
      contrib[at] = 0;
    }
    top.offer(d, total);
  }
}
