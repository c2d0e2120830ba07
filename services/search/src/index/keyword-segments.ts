// The keyword index's postings, off the JS object graph: a main segment in CSR form (per term an
// offset into one byte arena of delta + varint coded slots and one Uint8 arena of term frequencies),
// and delta segments of recent writes (per term a chain of small fixed-size chunks in one Int32
// pool). A merge rewrites main + a frozen delta into a new main in resumable steps, dropping removed
// documents' postings, while a fresh delta takes new writes; queries read all of them meanwhile.
// Slots only grow, so each term's slots ascend across main → frozen → active: gaps stay positive.
// Main's postings are also cut in blocks of BLOCK per term, each with its last slot and first byte
// (so a query skips a block without decoding it: the next block's first gap counts from that last
// slot) and its largest BM25 impact without the idf (tf (k1 + 1) / (tf + k1 (1 - b + b len / avg)))
// at the field's average length as of the merge, rounded up to a 16-bit fraction of k1 + 1: an upper
// bound of any of its postings' scores once scaled by the idf and, when the average has grown since,
// by the growth (keyword-prune.ts).

/** Slots per delta chunk; a chunk is [next chunk, slot × CHUNK] in the pool. */
const CHUNK = 8;
const STRIDE = CHUNK + 1;
/** Postings per main-segment block (a power of two). */
export const BLOCK = 128;
/** BM25's parameters (keyword-index.ts scores with them). */
export const K1 = 1.2;
export const B = 0.75;
/** A block's impact is kept as a multiple of (k1 + 1) / IMPACT_STEPS, rounded up. */
export const IMPACT_STEPS = 0xffff;

export interface MainSegment {
  /** Terms covered (ids at or above have no postings here). */
  terms: number;
  /** Per term: first posting (tfs index) and first byte (docs index); terms + 1 entries. */
  postStart: Uint32Array;
  byteStart: Uint32Array;
  /** Slots, per term ascending, the first as is and the rest as gaps, in LEB128 varints. */
  docs: Uint8Array;
  tfs: Uint8Array;
  /** Per term: its first block; terms + 1 entries. A term's blocks hold BLOCK postings, the last fewer. */
  blockStart: Uint32Array;
  /** Per block: its last slot, its first byte in docs, and its largest impact (see above). */
  blockLast: Uint32Array;
  blockByte: Uint32Array;
  blockImpact: Uint16Array;
  /** Per field: the average length the blocks' impacts were computed at. */
  fieldAvgs: Float64Array;
}

export const EMPTY_MAIN: MainSegment = {
  terms: 0,
  postStart: new Uint32Array(1),
  byteStart: new Uint32Array(1),
  docs: new Uint8Array(0),
  tfs: new Uint8Array(0),
  blockStart: new Uint32Array(1),
  blockLast: new Uint32Array(0),
  blockByte: new Uint32Array(0),
  blockImpact: new Uint16Array(0),
  fieldAvgs: new Float64Array(0),
};

/** Calls visit(slot, tf) for each of the term's postings in main, slot order. */
export function forMain(main: MainSegment, term: number, visit: (slot: number, tf: number) => void): void {
  if (term >= main.terms) return;
  const docs = main.docs;
  const tfs = main.tfs;
  let p = main.postStart[term]!;
  const end = main.postStart[term + 1]!;
  let b = main.byteStart[term]!;
  let slot = 0;
  for (; p < end; p++) {
    let v = docs[b++]!;
    if (v >= 0x80) {
      let gap = v & 0x7f;
      let shift = 7;
      do {
        v = docs[b++]!;
        gap += (v & 0x7f) * 2 ** shift;
        shift += 7;
      } while (v >= 0x80);
      slot += gap;
    } else slot += v;
    visit(slot, tfs[p]!);
  }
}

export class DeltaSegment {
  postings = 0;
  private head: Int32Array;
  private tail: Int32Array;
  private count: Int32Array;
  private pool = new Int32Array(STRIDE * 1_024);
  private poolTf = new Uint8Array(STRIDE * 1_024);
  /** Pool entries in use; 0 is never a chunk (it means "none"). */
  private used = STRIDE;

  constructor(terms: number) {
    const n = Math.max(1_024, terms);
    this.head = new Int32Array(n);
    this.tail = new Int32Array(n);
    this.count = new Int32Array(n);
  }

  /** The term's postings here. */
  countOf(term: number): number {
    return term < this.count.length ? this.count[term]! : 0;
  }

  add(term: number, slot: number, tf: number): void {
    if (term >= this.count.length) this.growTerms(term + 1);
    const n = this.count[term]!;
    let chunk = this.tail[term]!;
    if (n % CHUNK === 0) {
      if (this.used + STRIDE > this.pool.length) this.growPool();
      const fresh = this.used;
      this.used += STRIDE;
      this.pool[fresh] = 0;
      if (chunk === 0) this.head[term] = fresh;
      else this.pool[chunk] = fresh;
      this.tail[term] = fresh;
      chunk = fresh;
    }
    const at = chunk + 1 + (n % CHUNK);
    this.pool[at] = slot;
    this.poolTf[at] = tf;
    this.count[term] = n + 1;
    this.postings += 1;
  }

  /** Calls visit(slot, tf) for each of the term's postings here, slot order. */
  forEach(term: number, visit: (slot: number, tf: number) => void): void {
    let left = this.countOf(term);
    for (let chunk = left > 0 ? this.head[term]! : 0; chunk !== 0 && left > 0; chunk = this.pool[chunk]!) {
      const n = Math.min(left, CHUNK);
      for (let i = 1; i <= n; i++) visit(this.pool[chunk + i]!, this.poolTf[chunk + i]!);
      left -= n;
    }
  }

  /** Every posting as (term, slot, tf), term by term in slot order: add() them back to rebuild. */
  flatten(): { terms: Int32Array; slots: Int32Array; tfs: Uint8Array } {
    const terms = new Int32Array(this.postings);
    const slots = new Int32Array(this.postings);
    const tfs = new Uint8Array(this.postings);
    let i = 0;
    for (let t = 0; t < this.count.length; t++) {
      if (this.count[t] === 0) continue;
      this.forEach(t, (slot, tf) => {
        terms[i] = t;
        slots[i] = slot;
        tfs[i] = tf;
        i++;
      });
    }
    return { terms, slots, tfs };
  }

  bytes(): number {
    return (
      this.head.byteLength +
      this.tail.byteLength +
      this.count.byteLength +
      this.pool.byteLength +
      this.poolTf.byteLength
    );
  }

  private growTerms(min: number): void {
    const n = Math.max(min, this.count.length * 2);
    for (const name of ['head', 'tail', 'count'] as const) {
      const grown = new Int32Array(n);
      grown.set(this[name]);
      this[name] = grown;
    }
  }

  private growPool(): void {
    const pool = new Int32Array(this.pool.length * 2);
    pool.set(this.pool);
    this.pool = pool;
    const tfs = new Uint8Array(this.poolTf.length * 2);
    tfs.set(this.poolTf);
    this.poolTf = tfs;
  }
}

/**
 * Main + frozen delta → a new main, a slice at a time. isLive says whether a slot's document is still
 * there (removed documents' postings are dropped); each term's new count goes to setDf together with
 * the postings the active delta got meanwhile; fieldOf gives a term's field, whose lengths and
 * average length (fixed for the merge) make the blocks' impacts.
 */
export class MergeJob {
  private term = 0;
  private post = 0;
  private byte = 0;
  private readonly postStart: Uint32Array;
  private readonly byteStart: Uint32Array;
  private docs: Uint8Array;
  private tfs: Uint8Array;
  private readonly terms: number;
  private block = 0;
  private readonly blockStart: Uint32Array;
  private blockLast: Uint32Array;
  private blockByte: Uint32Array;
  private blockImpact: Uint16Array;

  private readonly main: MainSegment;
  readonly frozen: DeltaSegment;
  private readonly isLive: (slot: number) => boolean;
  private readonly setDf: (term: number, postings: number) => void;
  private readonly fieldOf: (term: number) => number;
  private readonly fieldLengths: (field: number) => Uint32Array;
  private readonly fieldAvgs: Float64Array;

  constructor(
    main: MainSegment,
    frozen: DeltaSegment,
    terms: number,
    isLive: (slot: number) => boolean,
    setDf: (term: number, postings: number) => void,
    fields: {
      of: (term: number) => number;
      lengths: (field: number) => Uint32Array;
      avgs: readonly number[];
    },
  ) {
    this.fieldOf = fields.of;
    this.fieldLengths = fields.lengths;
    this.fieldAvgs = Float64Array.from(fields.avgs);
    this.main = main;
    this.frozen = frozen;
    this.isLive = isLive;
    this.setDf = setDf;
    this.terms = terms;
    this.postStart = new Uint32Array(terms + 1);
    this.byteStart = new Uint32Array(terms + 1);
    const postings = main.tfs.length + frozen.postings;
    this.tfs = new Uint8Array(postings);
    // main's bytes again, plus two bytes a new posting (most gaps are short); grown when not enough
    this.docs = new Uint8Array(main.docs.length + frozen.postings * 2 + 64);
    // at most one short block per term beside the full ones
    const blocks = terms + Math.ceil(postings / BLOCK);
    this.blockStart = new Uint32Array(terms + 1);
    this.blockLast = new Uint32Array(blocks);
    this.blockByte = new Uint32Array(blocks);
    this.blockImpact = new Uint16Array(blocks);
  }

  /** Works for about budgetMs; the new main when done. */
  step(budgetMs: number): MainSegment | undefined {
    const until = performance.now() + budgetMs;
    let last = 0;
    let checked = this.post;
    let termPost = 0;
    let lengths: Uint32Array = new Uint32Array(0);
    let normB = 0;
    const keep = (slot: number, tf: number) => {
      if (!this.isLive(slot)) return;
      if (((this.post - termPost) & (BLOCK - 1)) === 0) {
        const b = this.block++;
        this.blockByte[b] = this.byte;
        this.blockImpact[b] = 0;
      }
      const b = this.block - 1;
      this.blockLast[b] = slot;
      // one step up from the rounded-up fraction: a float's rounding never makes it too low
      const impact = tf / (tf + K1 * (1 - B) + normB * lengths[slot]!);
      const steps = Math.min(IMPACT_STEPS, Math.ceil(impact * IMPACT_STEPS) + 1);
      if (steps > this.blockImpact[b]!) this.blockImpact[b] = steps;
      if (this.byte + 5 > this.docs.length) {
        const grown = new Uint8Array(Math.ceil(this.docs.length * 1.25) + 64);
        grown.set(this.docs);
        this.docs = grown;
      }
      let gap = slot - last;
      last = slot;
      while (gap >= 0x80) {
        this.docs[this.byte++] = (gap & 0x7f) | 0x80;
        gap = Math.floor(gap / 0x80);
      }
      this.docs[this.byte++] = gap;
      this.tfs[this.post++] = tf;
    };
    while (this.term < this.terms) {
      const t = this.term;
      this.postStart[t] = this.post;
      this.byteStart[t] = this.byte;
      this.blockStart[t] = this.block;
      termPost = this.post;
      const field = this.fieldOf(t);
      lengths = this.fieldLengths(field);
      normB = (K1 * B) / this.fieldAvgs[field]!;
      last = 0;
      forMain(this.main, t, keep);
      this.frozen.forEach(t, keep);
      this.setDf(t, this.post - this.postStart[t]!);
      this.term += 1;
      // the clock is read every 1,024 terms or 64k postings, whichever comes first
      if ((this.term & 1_023) === 0 || this.post - checked > 65_536) {
        checked = this.post;
        if (performance.now() > until) return undefined;
      }
    }
    this.postStart[this.terms] = this.post;
    this.byteStart[this.terms] = this.byte;
    this.blockStart[this.terms] = this.block;
    // trimmed only when much is unused (a copy of the arena): removed documents, short gaps
    if (this.byte < this.docs.length * 0.9) this.docs = this.docs.slice(0, this.byte);
    if (this.post < this.tfs.length * 0.9) this.tfs = this.tfs.slice(0, this.post);
    return {
      terms: this.terms,
      postStart: this.postStart,
      byteStart: this.byteStart,
      docs: this.docs.subarray(0, this.byte),
      tfs: this.tfs.subarray(0, this.post),
      blockStart: this.blockStart,
      blockLast: this.blockLast.slice(0, this.block),
      blockByte: this.blockByte.slice(0, this.block),
      blockImpact: this.blockImpact.slice(0, this.block),
      fieldAvgs: this.fieldAvgs,
    };
  }
}
