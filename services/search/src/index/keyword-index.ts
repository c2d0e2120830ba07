// An owner's searchable text as an in-memory BM25 inverted index, beside the LanceDB table (the store
// of record, whose own full-text index answers small owners, category and tag filters, and large owners
// while this is being built). The text analysis follows the table's FTS index (text-analysis.ts).
// Scoring is BM25 (k1 1.2, b 0.75) over the owner's own documents, summed over two fields as the
// table's query does: the whole search text, and the lead (the opening of the content) weighted
// LEAD_BOOST, each with its own lengths and document frequencies; the search text's adjacent word pairs
// (wordPairs) add the query's pairs at PAIR_BOOST. Term frequencies are capped at 255 (BM25 has long
// saturated there).
//
// Memory: everything is typed arrays (no object per term or document, so a million documents add
// nothing for the GC to mark): terms and keys in StringTables, per-slot lengths/types/keys, and the
// postings in a compact main segment plus a small delta of recent writes, merged in the background in
// slices (keyword-segments.ts). A removed document's slot is marked dead and its postings skipped; as
// in Lucene, the df of its terms keeps counting it until the next merge drops its postings (N and the
// average lengths are over live documents at once).
import { LEAD_BOOST, PAIR_BOOST } from './search-scoring.ts';
import { B, DeltaSegment, EMPTY_MAIN, K1, MergeJob, type MainSegment } from './keyword-segments.ts';
import { StringTable } from './string-table.ts';
import { pruneMain, type QueryList } from './keyword-prune.ts';
import { TopK, topSlots } from './top-k.ts';
import { analyse, wordPairs } from './text-analysis.ts';
import { readSnapshot, writeSnapshot, type SnapshotArray } from './typed-snapshot.ts';

export { analyse, contentWords, wordPairs } from './text-analysis.ts';

const MAX_TF = 255;
/** Lead terms live beside the body's under this prefix (no analysed word starts with it). */
const LEAD = '\u0001';
const LEAD_BYTE = 1;
/** A delta is merged into main past this many postings, or a quarter (building) / an eighth (ready) of main's. */
const MIN_DELTA_POSTINGS = 1 << 18;
/** During a build, merge work paid per posting loaded (enough to finish before the next is due). */
const BUILD_MERGE_CREDIT = 8;
/** A background merge step after the build: this long, then the loop's turn. */
const MERGE_STEP_MS = 4;
const SNAPSHOT_KIND = 'keyword-index';
/** 2: main's blocks (keyword-segments.ts) saved beside its postings; a format-1 snapshot is rebuilt. */
const SNAPSHOT_FORMAT = 2;

export interface KeywordCandidate {
  key: string;
  /** The BM25 score (not normalised). */
  score: number;
}

export interface KeywordIndexOptions {
  /** A delta is merged past this many postings at least (default 2^18; tests use less). */
  minDeltaPostings?: number;
}

interface Meta {
  live: number;
  slots: number;
  totalLength: number;
  totalLeadLength: number;
  types: string[];
  mainTerms: number;
}

function grow<T extends Int32Array | Uint32Array | Uint8Array>(a: T, min: number, fill = 0): T {
  if (a.length >= min) return a;
  const grown = new (a.constructor as new (n: number) => T)(Math.max(min, a.length * 2, 1_024));
  grown.set(a);
  if (fill !== 0) grown.fill(fill, a.length);
  return grown;
}

/**
 * Documents get slots (never reused); a removed document's slot is dead. A key written since a build
 * began is `touched`, as in the vector graph: the builder's older snapshot rows must not overwrite it.
 */
export class OwnerKeywordIndex {
  state: 'building' | 'ready' = 'building';
  private readonly terms: StringTable;
  private readonly keys: StringTable;
  /** Per term: postings over all segments, removed documents' included until a merge. */
  private df: Int32Array;
  /** Per key id: its live slot or -1; whether it was written during the build. */
  private keySlot: Int32Array;
  private keyTouched = new Uint8Array(0);
  /** Per slot: the key id (-1 once removed), type, and the two fields' lengths. */
  private slotKey: Int32Array;
  private slotType: Uint8Array;
  private lengths: Uint32Array;
  private leadLengths: Uint32Array;
  private slots: number;
  private live: number;
  private totalLength: number;
  private totalLeadLength: number;
  private readonly types: string[];
  private main: MainSegment;
  private delta: DeltaSegment;
  private merge: MergeJob | undefined;
  private mergeCredit = 0;
  private mergeTimer: NodeJS.Immediate | undefined;
  /** Merge until the delta is empty (after the build), not just until it is below the threshold. */
  private foldDelta = false;
  /** Scores by slot and the slots scored, reused by every search (no large allocation per query). */
  private scratch = new Float64Array(0);
  private hitSlots = new Int32Array(0);

  private readonly minDeltaPostings: number;

  constructor(
    options: KeywordIndexOptions = {},
    restore?: { arrays: Record<string, SnapshotArray>; meta: Meta },
  ) {
    this.minDeltaPostings = options.minDeltaPostings ?? MIN_DELTA_POSTINGS;
    const arrays = restore?.arrays;
    const meta = restore?.meta;
    const a = arrays ?? {};
    const table = (prefix: string) =>
      arrays
        ? new StringTable({
            chars: a[`${prefix}Chars`] as Uint8Array,
            starts: a[`${prefix}Starts`] as Uint32Array,
            buckets: a[`${prefix}Buckets`] as Int32Array,
            size: (a[`${prefix}Starts`] as Uint32Array).length - 1,
          })
        : new StringTable();
    this.terms = table('term');
    this.keys = table('key');
    this.df = (a.df as Int32Array) ?? new Int32Array(1_024);
    this.keySlot = (a.keySlot as Int32Array) ?? new Int32Array(1_024).fill(-1);
    this.slotKey = (a.slotKey as Int32Array) ?? new Int32Array(1_024);
    this.slotType = (a.slotType as Uint8Array) ?? new Uint8Array(1_024);
    this.lengths = (a.lengths as Uint32Array) ?? new Uint32Array(1_024);
    this.leadLengths = (a.leadLengths as Uint32Array) ?? new Uint32Array(1_024);
    this.slots = meta?.slots ?? 0;
    this.live = meta?.live ?? 0;
    this.totalLength = meta?.totalLength ?? 0;
    this.totalLeadLength = meta?.totalLeadLength ?? 0;
    this.types = meta?.types ?? [];
    this.main = arrays
      ? {
          terms: meta!.mainTerms,
          postStart: a.postStart as Uint32Array,
          byteStart: a.byteStart as Uint32Array,
          docs: a.docs as Uint8Array,
          tfs: a.tfs as Uint8Array,
          blockStart: a.blockStart as Uint32Array,
          blockLast: a.blockLast as Uint32Array,
          blockByte: a.blockByte as Uint32Array,
          blockImpact: a.blockImpact as Uint16Array,
          fieldAvgs: a.fieldAvgs as Float64Array,
        }
      : EMPTY_MAIN;
    this.delta = new DeltaSegment(this.terms.size);
  }

  get size(): number {
    return this.live;
  }

  applyWrite(key: string, entityType: string, text: string | null, lead = ''): void {
    const id = this.keyId(key);
    if (this.state === 'building') {
      this.keyTouched = grow(this.keyTouched, id + 1);
      this.keyTouched[id] = 1;
    }
    this.put(id, entityType, text, lead);
  }

  load(key: string, entityType: string, text: string, lead = ''): void {
    const id = this.keyId(key);
    if (this.keyTouched[id] === 1) return;
    this.put(id, entityType, text, lead);
  }

  markReady(): void {
    this.state = 'ready';
    this.keyTouched = new Uint8Array(0);
    // a build's large last delta is folded in at once (in the background); a small one (after a
    // snapshot load, the reconcile's writes: folding 8 into a 1M main took 4.7 s of loop) is left
    this.foldDelta = this.delta.postings >= this.minDeltaPostings;
    this.scheduleMerge();
  }

  remove(key: string): void {
    const id = this.keys.find(key);
    if (id >= 0) this.removeKey(id);
  }

  /** Stops background merging (the index is being dropped). */
  close(): void {
    if (this.mergeTimer) clearImmediate(this.mergeTimer);
    this.mergeTimer = undefined;
  }

  /** Merges everything into main now, in one go (tests; saveTo does it in slices). */
  mergeNow(): void {
    do {
      this.startMerge();
      while (this.merge) this.mergeStep(1_000);
    } while (this.delta.postings > 0);
  }

  /** Postings in the main segment and the deltas, and whether a merge is under way (tests, bench). */
  segments(): { main: number; delta: number; merging: boolean } {
    return {
      main: this.main.tfs.length,
      delta: this.delta.postings + (this.merge?.frozen.postings ?? 0),
      merging: this.merge !== undefined,
    };
  }

  /** Bytes held by the structures, by part (capacity), for the bench; blocks: main's, within postings. */
  memory(): { postings: number; blocks: number; terms: number; keys: number; slots: number } {
    const main = this.main;
    const blocks =
      main.blockStart.byteLength +
      main.blockLast.byteLength +
      main.blockByte.byteLength +
      main.blockImpact.byteLength;
    return {
      postings:
        main.docs.buffer.byteLength +
        main.tfs.buffer.byteLength +
        main.postStart.byteLength +
        main.byteStart.byteLength +
        blocks +
        this.delta.bytes() +
        (this.merge?.frozen.bytes() ?? 0),
      blocks,
      terms: this.terms.bytes() + this.df.byteLength,
      keys: this.keys.bytes() + this.keySlot.byteLength + this.keyTouched.byteLength,
      slots:
        this.slotKey.byteLength +
        this.slotType.byteLength +
        this.lengths.byteLength +
        this.leadLengths.byteLength,
    };
  }

  /** The k best documents by BM25 (any query term matches), best first; ties by key. */
  search(text: string, k: number, entityTypes?: readonly string[]): KeywordCandidate[] {
    return this.query(text, k, entityTypes, true);
  }

  /** search() scoring every posting, without pruning: the reference for tests and the bench. */
  searchExhaustive(text: string, k: number, entityTypes?: readonly string[]): KeywordCandidate[] {
    return this.query(text, k, entityTypes, false);
  }

  /** Saves a snapshot into dir: any merge under way finished first (in slices), then written as of now. */
  async saveTo(dir: string): Promise<void> {
    while (this.merging) await this.finishMerge();
    await this.freeze()(dir);
  }

  /** Whether a merge is under way (a snapshot is frozen between merges: see freeze). */
  get merging(): boolean {
    return this.merge !== undefined;
  }

  /** Finishes a merge under way in slices, the loop getting its turn between them (writes go on). */
  async finishMerge(): Promise<void> {
    while (this.merge) {
      this.mergeStep(MERGE_STEP_MS);
      if (this.merge) await new Promise<void>((r) => setImmediate(r));
    }
  }

  /**
   * The index as of now, for a snapshot written while writes and merges go on: returns the writer of
   * that state. Call it with no merge under way (a merge rewrites df as it goes). The main segment is
   * never changed in place (a merge makes a new one) and the string tables only append, so they are
   * written straight from their arrays; the per-key and per-slot arrays and the small delta change
   * with writes and are copied (a few bytes a document, not the postings).
   */
  freeze(): (dir: string) => Promise<void> {
    if (this.merge) throw new Error('keyword index: freeze() during a merge (call finishMerge first)');
    const delta = this.delta.flatten();
    const terms = this.terms.frozen();
    const keys = this.keys.frozen();
    const arrays: Record<string, SnapshotArray> = {
      termChars: terms.chars,
      termStarts: terms.starts,
      termBuckets: terms.buckets,
      keyChars: keys.chars,
      keyStarts: keys.starts,
      keyBuckets: keys.buckets,
      df: this.df.slice(0, terms.size),
      keySlot: this.keySlot.slice(0, keys.size),
      slotKey: this.slotKey.slice(0, this.slots),
      slotType: this.slotType.slice(0, this.slots),
      lengths: this.lengths.slice(0, this.slots),
      leadLengths: this.leadLengths.slice(0, this.slots),
      postStart: this.main.postStart,
      byteStart: this.main.byteStart,
      docs: this.main.docs,
      tfs: this.main.tfs,
      blockStart: this.main.blockStart,
      blockLast: this.main.blockLast,
      blockByte: this.main.blockByte,
      blockImpact: this.main.blockImpact,
      fieldAvgs: this.main.fieldAvgs,
      deltaTerms: delta.terms,
      deltaSlots: delta.slots,
      deltaTfs: delta.tfs,
    };
    const meta: Meta = {
      live: this.live,
      slots: this.slots,
      totalLength: this.totalLength,
      totalLeadLength: this.totalLeadLength,
      types: [...this.types],
      mainTerms: this.main.terms,
    };
    return (dir) => writeSnapshot(dir, SNAPSHOT_KIND, SNAPSHOT_FORMAT, arrays, meta);
  }

  /** A ready index read back from saveTo's snapshot; a missing, truncated or corrupt one throws. */
  static async loadFrom(dir: string): Promise<OwnerKeywordIndex> {
    const { arrays, meta } = await readSnapshot(dir, SNAPSHOT_KIND, SNAPSHOT_FORMAT);
    const m = meta as Meta;
    const slots = m.slots;
    const ok =
      (arrays.termStarts?.length ?? 0) === (arrays.df?.length ?? -1) + 1 &&
      (arrays.keyStarts?.length ?? 0) === (arrays.keySlot?.length ?? -1) + 1 &&
      [arrays.slotKey, arrays.slotType, arrays.lengths, arrays.leadLengths].every(
        (x) => x?.length === slots,
      ) &&
      arrays.postStart?.length === m.mainTerms + 1 &&
      arrays.postStart[m.mainTerms] === arrays.tfs?.length &&
      arrays.byteStart?.[m.mainTerms] === arrays.docs?.length &&
      arrays.blockStart?.length === m.mainTerms + 1 &&
      [arrays.blockLast, arrays.blockByte, arrays.blockImpact].every(
        (x) => x?.length === arrays.blockStart![m.mainTerms],
      ) &&
      (m.mainTerms === 0 || arrays.fieldAvgs?.length === 2) &&
      arrays.deltaSlots?.length === arrays.deltaTerms?.length &&
      arrays.deltaTfs?.length === arrays.deltaTerms?.length &&
      (arrays.deltaTerms as Int32Array).every((t) => t >= 0 && t < arrays.df!.length) &&
      (arrays.deltaSlots as Int32Array).every((x) => x >= 0 && x < slots);
    if (!ok) throw new Error(`keyword index snapshot in ${dir}: arrays do not fit together (corrupt)`);
    const index = new OwnerKeywordIndex({}, { arrays, meta: m });
    const [terms, deltaSlots, tfs] = [arrays.deltaTerms!, arrays.deltaSlots!, arrays.deltaTfs!];
    for (let i = 0; i < terms.length; i++) index.delta.add(terms[i]!, deltaSlots[i]!, tfs[i]!);
    index.state = 'ready';
    return index;
  }

  private put(id: number, entityType: string, text: string | null, lead: string): void {
    this.removeKey(id);
    if (text === null) return;
    const counts = new Map<number, number>();
    const count = (term: string) => {
      const t = this.terms.intern(term);
      counts.set(t, (counts.get(t) ?? 0) + 1);
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
    const slot = this.slots++;
    this.slotKey = grow(this.slotKey, slot + 1);
    this.slotType = grow(this.slotType, slot + 1);
    this.lengths = grow(this.lengths, slot + 1);
    this.leadLengths = grow(this.leadLengths, slot + 1);
    this.df = grow(this.df, this.terms.size);
    let type = this.types.indexOf(entityType);
    if (type < 0) {
      if (this.types.length === 255) throw new Error('keyword index: more than 255 entity types');
      type = this.types.push(entityType) - 1;
    }
    this.slotKey[slot] = id;
    this.slotType[slot] = type;
    this.lengths[slot] = length;
    this.leadLengths[slot] = leadLength;
    this.keySlot[id] = slot;
    this.live += 1;
    this.totalLength += length;
    this.totalLeadLength += leadLength;
    for (const [t, tf] of counts) {
      this.delta.add(t, slot, Math.min(tf, MAX_TF));
      this.df[t]! += 1;
    }
    if (this.state === 'building') {
      // the build pays for merges as it goes, a little per posting, so none is one long block
      if (this.merge) {
        this.mergeCredit += counts.size * BUILD_MERGE_CREDIT;
        if (this.mergeCredit > 50_000) {
          this.mergeCredit = 0;
          this.mergeStep(1);
        }
      } else if (this.mergeDue()) this.startMerge();
    } else this.scheduleMerge();
  }

  private keyId(key: string): number {
    const id = this.keys.intern(key);
    this.keySlot = grow(this.keySlot, this.keys.size, -1);
    return id;
  }

  private removeKey(id: number): void {
    const slot = id < this.keySlot.length ? this.keySlot[id]! : -1;
    if (slot < 0) return;
    this.keySlot[id] = -1;
    this.slotKey[slot] = -1;
    this.live -= 1;
    this.totalLength -= this.lengths[slot]!;
    this.totalLeadLength -= this.leadLengths[slot]!;
  }

  private mergeDue(): boolean {
    if (this.foldDelta && this.delta.postings === 0 && !this.merge) this.foldDelta = false;
    // a build merges at a quarter of main (amortised cost); a ready index keeps its delta smaller
    const share = this.state === 'building' ? 4 : 8;
    return (
      (this.foldDelta && this.delta.postings > 0) ||
      this.delta.postings >= Math.max(this.minDeltaPostings, this.main.tfs.length / share)
    );
  }

  private startMerge(): void {
    if (this.merge) return;
    const frozen = this.delta;
    this.delta = new DeltaSegment(this.terms.size);
    this.merge = new MergeJob(
      this.main,
      frozen,
      this.terms.size,
      (slot) => this.slotKey[slot]! >= 0,
      (t, n) => {
        this.df[t] = n + this.delta.countOf(t);
      },
      {
        // the blocks' impacts are computed at today's averages (a query scales them if these grow)
        of: (t) => (this.terms.firstByte(t) === LEAD_BYTE ? 1 : 0),
        lengths: (field) => (field === 1 ? this.leadLengths : this.lengths),
        avgs: [this.totalLength / this.live || 1, this.totalLeadLength / this.live || 1],
      },
    );
  }

  private mergeStep(budgetMs: number): void {
    const done = this.merge?.step(budgetMs);
    if (!done) return;
    this.main = done;
    this.merge = undefined;
    if (this.delta.postings === 0) this.foldDelta = false;
  }

  /** After the build: merges run on the loop in short steps whenever one is due. */
  private scheduleMerge(): void {
    if (this.state !== 'ready' || this.mergeTimer || (!this.merge && !this.mergeDue())) return;
    this.mergeTimer = setImmediate(() => {
      this.mergeTimer = undefined;
      if (!this.merge) this.startMerge();
      this.mergeStep(MERGE_STEP_MS);
      this.scheduleMerge(); // the rest of this merge, or the next one due
    });
    this.mergeTimer.unref();
  }

  /**
   * The query's lists (each term in each field, then its word pairs) with their idfs; the delta
   * segments' postings scored into the scratch scores, and main's too unless pruned (then pruneMain
   * takes main, the delta's matches in the heap first).
   */
  private query(
    text: string,
    k: number,
    entityTypes: readonly string[] | undefined,
    pruned: boolean,
  ): KeywordCandidate[] {
    const live = this.live;
    if (live === 0 || k < 1) return [];
    const queryTerms = [...new Set(analyse(text))];
    const pairTerms = [...new Set(analyse(wordPairs(text)))];
    const avg = this.totalLength / live || 1;
    const leadAvg = this.totalLeadLength / live || 1;
    let typeMask: Uint8Array | undefined;
    if (entityTypes && entityTypes.length > 0) {
      typeMask = new Uint8Array(this.types.length);
      for (const t of entityTypes) {
        const i = this.types.indexOf(t);
        if (i >= 0) typeMask[i] = 1;
      }
    }
    if (this.scratch.length < this.slots) {
      this.scratch = new Float64Array(this.slots * 2);
      this.hitSlots = new Int32Array(this.slots * 2);
    }
    const scores = this.scratch;
    const hitSlots = this.hitSlots;
    let hits = 0;
    const slotKey = this.slotKey;
    const body = { prefix: '', lengths: this.lengths, avg, weight: 1, field: 0 };
    const lead = { prefix: LEAD, lengths: this.leadLengths, avg: leadAvg, weight: LEAD_BOOST, field: 1 };
    // A query's word pairs score in the search text only (the lead holds no pairs), at PAIR_BOOST.
    const scored = [
      ...queryTerms.flatMap((term) => [body, lead].map((f) => ({ term, f, weight: f.weight }))),
      ...pairTerms.map((term) => ({ term, f: body, weight: PAIR_BOOST })),
    ];
    const lists: QueryList[] = [];
    for (const { term, f, weight } of scored) {
      const id = this.terms.find(f.prefix + term);
      if (id < 0 || this.df[id] === 0) continue;
      const df = this.df[id]!;
      const idf = weight * Math.log(1 + (live - df + 0.5) / (df + 0.5));
      const lengths = f.lengths;
      const fieldAvg = f.avg;
      lists.push({ term: id, idf, lengths, avg: fieldAvg, field: f.field });
      const visit = (slot: number, tf: number) => {
        if (slotKey[slot]! < 0) return;
        const norm = tf + K1 * (1 - B + (B * lengths[slot]!) / fieldAvg);
        if (scores[slot] === 0) hitSlots[hits++] = slot;
        scores[slot]! += (idf * tf * (K1 + 1)) / norm;
      };
      if (!pruned) {
        this.scoreMain(id, idf, lengths, fieldAvg, hits);
        hits = this.hitCount;
      }
      this.merge?.frozen.forEach(id, visit);
      this.delta.forEach(id, visit);
    }
    if (!pruned) return this.topK(hits, k, typeMask);
    const slotType = this.slotType;
    const keys = this.keys;
    const top = new TopK(k, (a, b) => keys.compare(slotKey[a]!, slotKey[b]!));
    for (let h = 0; h < hits; h++) {
      const slot = hitSlots[h]!;
      const score = scores[slot]!;
      scores[slot] = 0;
      if (!typeMask || typeMask[slotType[slot]!] === 1) top.offer(slot, score);
    }
    pruneMain(
      this.main,
      lists,
      top,
      (slot) => slotKey[slot]! >= 0 && (!typeMask || typeMask[slotType[slot]!] === 1),
      { scores, hitSlots },
    );
    return this.candidates(top.entries());
  }

  /** visit() of search for the main segment, its varint decoding inlined: the hot loop of a query. */
  private hitCount = 0;
  private scoreMain(term: number, idf: number, lengths: Uint32Array, fieldAvg: number, hits: number): void {
    const main = this.main;
    const scores = this.scratch;
    const hitSlots = this.hitSlots;
    const slotKey = this.slotKey;
    if (term < main.terms) {
      const docs = main.docs;
      const tfs = main.tfs;
      const end = main.postStart[term + 1]!;
      let b = main.byteStart[term]!;
      let slot = 0;
      for (let p = main.postStart[term]!; p < end; p++) {
        let v = docs[b++]!;
        let gap = v & 0x7f;
        for (let shift = 128; v >= 0x80; shift *= 128) {
          v = docs[b++]!;
          gap += (v & 0x7f) * shift;
        }
        slot += gap;
        if (slotKey[slot]! < 0) continue;
        const tf = tfs[p]!;
        const norm = tf + K1 * (1 - B + (B * lengths[slot]!) / fieldAvg);
        if (scores[slot] === 0) hitSlots[hits++] = slot;
        scores[slot]! += (idf * tf * (K1 + 1)) / norm;
      }
    }
    this.hitCount = hits;
  }

  /** The k best of the scored slots (top-k.ts); zeroes the scratch scores. */
  private topK(hits: number, k: number, typeMask: Uint8Array | undefined): KeywordCandidate[] {
    const keys = this.keys;
    const slotKey = this.slotKey;
    const slots = topSlots(
      this.hitSlots,
      hits,
      this.scratch,
      k,
      (slot) => !typeMask || typeMask[this.slotType[slot]!] === 1,
      (a, b) => keys.compare(slotKey[a]!, slotKey[b]!),
    );
    return this.candidates(slots);
  }

  /** Slots and scores as keys and scores, best first, ties by key. */
  private candidates(slots: { slot: number; score: number }[]): KeywordCandidate[] {
    const keys = this.keys;
    const slotKey = this.slotKey;
    return slots
      .map(({ slot, score }) => ({ key: keys.get(slotKey[slot]!), score }))
      .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
}
