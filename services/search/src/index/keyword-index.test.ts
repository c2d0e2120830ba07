import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OwnerKeywordIndex, analyse, wordPairs, type KeywordCandidate } from './keyword-index.ts';
import { LEAD_BOOST, PAIR_BOOST } from './search-scoring.ts';

describe('analyse', () => {
  it('folds case and accents, drops stop words and overlong tokens, and stems like the table’s FTS', () => {
    expect(analyse('The Running of the CAFÉ’s studies, 2024!')).toEqual([
      'run',
      'cafe',
      's',
      'studi',
      '2024',
    ]);
    expect(analyse(`a ${'x'.repeat(41)} b`)).toEqual(['b']);
    expect(analyse('*** "" OR AND ((')).toEqual([]);
    expect(analyse('Ünïcödé naïve 東京 🎉')).toEqual(['unicod', 'naiv', '東京']);
  });
});

describe('wordPairs', () => {
  it('pairs adjacent stems, stop words skipped, as single terms the analyser keeps', () => {
    expect(wordPairs('Open and possibly create a FILE')).toBe('open0possibl possibl0creat creat0file');
    expect(analyse(wordPairs('create a file'))).toEqual(['creat0fil']);
    expect(wordPairs('file')).toBe('');
    expect(wordPairs('the of and')).toBe('');
  });
});

describe('OwnerKeywordIndex', () => {
  function index(docs: Record<string, string>, types: Record<string, string> = {}): OwnerKeywordIndex {
    const ix = new OwnerKeywordIndex();
    for (const [k, text] of Object.entries(docs)) ix.load(k, types[k] ?? 'document', text);
    ix.markReady();
    return ix;
  }

  it('adds the lead: of two texts with the same words, the one that opens with them ranks first', () => {
    const filler = 'notes on the project and its many small parts and pieces and other matters '.repeat(8);
    const ix = new OwnerKeywordIndex();
    const late = `${filler} tidal turbine`;
    const early = `tidal turbine ${filler}`;
    ix.load('late', 'document', late, late.slice(0, 100));
    ix.load('early', 'document', early, early.slice(0, 100));
    ix.markReady();
    const hits = ix.search('tidal turbine', 10);
    expect(hits.map((h) => h.key)).toEqual(['early', 'late']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    // and a write replaces the lead with the text
    ix.applyWrite('early', 'document', late, late.slice(0, 100));
    const again = ix.search('tidal turbine', 10);
    expect(again[0]!.score).toBeCloseTo(again[1]!.score, 9);
  });

  it('scores a query’s adjacent words (word pairs) above the same words apart', () => {
    const withPairs = (t: string) => `${t}\n${wordPairs(t)}`;
    // Without the pairs the shorter text, with the words apart, would rank first.
    const apart = 'create the socket and read the file';
    const together = 'read the socket header and create a file';
    const ix = index({ apart: withPairs(apart), together: withPairs(together), other: withPairs('socket') });
    expect(ix.search('create a file', 10).map((h) => h.key)).toEqual(['together', 'apart']);
    const plain = index({ apart, together, other: 'socket' });
    expect(plain.search('create a file', 10).map((h) => h.key)).toEqual(['apart', 'together']);
  });

  it('ranks by BM25: rarer words weigh more, more occurrences count, shorter documents win ties', () => {
    const ix = index({
      a: 'ocean warming and glacier retreat',
      b: 'ocean ocean ocean currents',
      c: 'glacier',
      d: 'a long report about many things including an ocean and budgets and plans and more words',
      e: 'budgets',
    });
    const ocean = ix.search('ocean', 10).map((h) => h.key);
    expect(ocean).toEqual(['b', 'a', 'd']);
    // "glacier" is rarer than "ocean": the document with both ranks first, then the short glacier one
    expect(ix.search('glacier ocean', 10).map((h) => h.key)).toEqual(['a', 'c', 'b', 'd']);
    expect(ix.search('warmed', 10).map((h) => h.key)).toEqual(['a']); // stems match
    expect(ix.search('nothing here', 10)).toEqual([]);
    expect(ix.search('the and of', 10)).toEqual([]);
    const scores = ix.search('ocean', 10).map((h) => h.score);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
  });

  it('filters by type, returns the top k with ties by key, and follows writes and deletes', () => {
    const docs: Record<string, string> = {};
    const types: Record<string, string> = {};
    for (let i = 0; i < 50; i++) {
      docs[`k${String(i).padStart(2, '0')}`] = 'walnut chair';
      types[`k${String(i).padStart(2, '0')}`] = i % 2 ? 'inventory_item' : 'document';
    }
    const ix = index(docs, types);
    expect(ix.search('walnut', 3).map((h) => h.key)).toEqual(['k00', 'k01', 'k02']);
    expect(ix.search('walnut', 3, ['inventory_item']).map((h) => h.key)).toEqual(['k01', 'k03', 'k05']);
    ix.applyWrite('k00', 'document', 'oak table');
    ix.applyWrite('k01', 'inventory_item', null);
    expect(ix.size).toBe(49);
    expect(ix.search('walnut', 3).map((h) => h.key)).toEqual(['k02', 'k03', 'k04']);
    expect(ix.search('oak', 3).map((h) => h.key)).toEqual(['k00']);
  });

  it('keeps answers right after many deletes (compaction) and keeps writes made during a build', () => {
    const ix = new OwnerKeywordIndex();
    ix.applyWrite('new', 'document', 'heron'); // written while building
    ix.applyWrite('gone', 'document', null);
    ix.load('new', 'document', 'old text');
    ix.load('gone', 'document', 'heron');
    for (let i = 0; i < 3_000; i++) ix.load(`d${i}`, 'document', `common word${i % 7}`);
    ix.markReady();
    expect(ix.search('heron', 5).map((h) => h.key)).toEqual(['new']);
    for (let i = 0; i < 2_500; i++) ix.applyWrite(`d${i}`, 'document', null);
    expect(ix.size).toBe(501);
    const hits = ix.search('common', 1_000);
    expect(hits).toHaveLength(500);
    expect(new Set(hits.map((h) => h.key))).toEqual(
      new Set(Array.from({ length: 500 }, (_, i) => `d${2500 + i}`)),
    );
    expect(ix.search('heron', 5).map((h) => h.key)).toEqual(['new']);
  });

  it('picks the true top k from a long list', () => {
    const ix = new OwnerKeywordIndex();
    for (let i = 0; i < 5_000; i++) ix.load(`d${i}`, 'document', `pine ${'filler '.repeat(i % 97)}`);
    ix.markReady();
    const top = ix.search('pine', 20);
    const all = ix.search('pine', 5_000);
    expect(top).toEqual(all.slice(0, 20));
    expect(top[0]!.score).toBeGreaterThanOrEqual(top[19]!.score);
  });
});

// ---- the compact layout: reference BM25, merges, deletes, snapshots ----------------------------

/** A straightforward BM25 over live documents, as the index documents it (Maps, no tricks). */
function referenceIndex(
  docs: Map<string, { type: string; text: string; lead: string }>,
): (query: string, k: number, types?: string[]) => KeywordCandidate[] {
  const fields = [...docs].map(([key, d]) => {
    const tf = (terms: string[]) => {
      const m = new Map<string, number>();
      for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
      for (const [t, n] of m) m.set(t, Math.min(n, 255));
      return m;
    };
    const body = analyse(d.text);
    const lead = analyse(d.lead);
    return { key, type: d.type, body: tf(body), lead: tf(lead), len: body.length, leadLen: lead.length };
  });
  const n = fields.length;
  const avg = fields.reduce((s, f) => s + f.len, 0) / n || 1;
  const leadAvg = fields.reduce((s, f) => s + f.leadLen, 0) / n || 1;
  const dfs = new Map<string, number>();
  for (const f of fields) {
    for (const t of f.body.keys()) dfs.set(t, (dfs.get(t) ?? 0) + 1);
    for (const t of f.lead.keys()) dfs.set(`lead:${t}`, (dfs.get(`lead:${t}`) ?? 0) + 1);
  }
  return (query, k, types) => {
    if (n === 0) return [];
    const scores = new Map<string, number>();
    const terms = [...new Set(analyse(query))];
    const scored = [
      ...terms.flatMap((t) => [
        { t, lead: false, w: 1 },
        { t, lead: true, w: LEAD_BOOST },
      ]),
      ...[...new Set(analyse(wordPairs(query)))].map((t) => ({ t, lead: false, w: PAIR_BOOST })),
    ];
    for (const { t, lead, w } of scored) {
      const df = dfs.get(lead ? `lead:${t}` : t) ?? 0;
      if (df === 0) continue;
      const idf = w * Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (const f of fields) {
        const tf = (lead ? f.lead : f.body).get(t);
        if (!tf) continue;
        const norm = tf + 1.2 * (1 - 0.75 + (0.75 * (lead ? f.leadLen : f.len)) / (lead ? leadAvg : avg));
        scores.set(f.key, (scores.get(f.key) ?? 0) + (idf * tf * 2.2) / norm);
      }
    }
    return [...scores]
      .filter(([key]) => !types || types.includes(docs.get(key)!.type))
      .map(([key, score]) => ({ key, score }))
      .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1))
      .slice(0, k);
  };
}

/** A random corpus with Zipf-like word frequencies (very common and very rare words), pairs appended. */
function randomCorpus(
  count: number,
  seed: number,
): Map<string, { type: string; text: string; lead: string }> {
  let a = seed;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const vocab = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}x${'abcdefgh'[i % 8]}`);
  const docs = new Map<string, { type: string; text: string; lead: string }>();
  for (let i = 0; i < count; i++) {
    const words = Array.from(
      { length: 3 + Math.floor(rand() * 40) },
      () => vocab[Math.floor(400 * rand() ** 3)]!,
    );
    // a few documents repeat one word past the Uint8 term-frequency cap
    if (i % 97 === 0) words.push(...Array<string>(300).fill(vocab[1]!));
    const text = words.join(' ');
    docs.set(`doc-${(i * 7919) % count}`, {
      type: rand() < 0.3 ? 'inventory_item' : 'document',
      text: `${text}\n${wordPairs(text)}`,
      lead: text.slice(0, 60),
    });
  }
  return docs;
}

const QUERIES = [
  'w0xa',
  'w1xb w2xc',
  'w3xd w4xe w5xf',
  'w9xb wbxd',
  'w2xc w3xd',
  'w5xf w1xb w0xa',
  'w4pxh',
  'nothing',
];

function expectSameAsReference(
  ix: OwnerKeywordIndex,
  docs: Map<string, { type: string; text: string; lead: string }>,
): void {
  const reference = referenceIndex(docs);
  for (const q of QUERIES) {
    for (const types of [undefined, ['inventory_item']]) {
      const got = ix.search(q, 15, types);
      const want = reference(q, 15, types);
      expect(
        got.map((h) => h.key),
        q,
      ).toEqual(want.map((h) => h.key));
      got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]!.score, 9));
    }
  }
}

/** A delta threshold far below the default, so small corpora merge several times while built. */
const SMALL_DELTA = 20_000;

describe('OwnerKeywordIndex layout', () => {
  it('ranks exactly as a reference BM25 over a random corpus, across merges made during the build', () => {
    const docs = randomCorpus(2_500, 7);
    const ix = new OwnerKeywordIndex({ minDeltaPostings: SMALL_DELTA });
    for (const [key, d] of docs) ix.load(key, d.type, d.text, d.lead);
    // the build merged at least once (its postings are past the delta's threshold) and left a delta
    expect(ix.segments().main).toBeGreaterThan(0);
    ix.markReady();
    expectSameAsReference(ix, docs);
    ix.mergeNow();
    expect(ix.segments()).toEqual({ main: expect.any(Number), delta: 0, merging: false });
    expectSameAsReference(ix, docs);
  });

  it('answers from main and delta alike, skips removed documents, and drops them at the merge', () => {
    const docs = randomCorpus(1_500, 11);
    const ix = new OwnerKeywordIndex({ minDeltaPostings: SMALL_DELTA });
    for (const [key, d] of docs) ix.load(key, d.type, d.text, d.lead);
    ix.markReady();
    ix.mergeNow();
    // writes after the build: new documents, rewrites and deletes go to the delta
    const later = randomCorpus(600, 12);
    let i = 0;
    for (const [key, d] of later) {
      const k = i % 3 === 0 ? key : `late-${key}`; // a third rewrite existing keys
      ix.applyWrite(k, d.type, d.text, d.lead);
      docs.set(k, d);
      i++;
    }
    for (const key of [...docs.keys()].filter((_, j) => j % 5 === 0)) {
      ix.applyWrite(key, 'document', null);
      docs.delete(key);
    }
    expect(ix.size).toBe(docs.size);
    expect(ix.segments().delta).toBeGreaterThan(0);
    // removed documents never appear, though df still counts them until the merge
    for (const q of QUERIES) {
      for (const h of ix.search(q, 50)) expect(docs.has(h.key), h.key).toBe(true);
    }
    ix.mergeNow();
    expect(ix.segments().delta).toBe(0);
    expectSameAsReference(ix, docs);
  });

  it('counts a removed document in df until the next merge, as Lucene does', () => {
    const ix = new OwnerKeywordIndex({ minDeltaPostings: SMALL_DELTA });
    for (const [k, t] of Object.entries({ a: 'ocean', b: 'ocean', c: 'other', d: 'more' }))
      ix.load(k, 'document', t);
    ix.markReady();
    ix.remove('b');
    const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
    // live documents 3, each of length 1: the tf part is 2.2 / (1 + 1.2) = 1
    expect(ix.search('ocean', 5)[0]!.score).toBeCloseTo(idf(3, 2), 12);
    ix.mergeNow();
    expect(ix.search('ocean', 5)[0]!.score).toBeCloseTo(idf(3, 1), 12);
  });

  it('reads slots far apart back from the varint gaps', () => {
    const ix = new OwnerKeywordIndex({ minDeltaPostings: SMALL_DELTA });
    ix.load('first', 'document', 'zebra');
    for (let i = 0; i < 20_000; i++) ix.load(`f${i}`, 'document', 'filler'); // gaps past 2^14: 3 varint bytes
    ix.load('last', 'document', 'zebra');
    ix.markReady();
    ix.mergeNow();
    expect(ix.search('zebra', 5).map((h) => h.key)).toEqual(['first', 'last']);
  });

  it('folds the build’s last delta into main in the background after markReady', async () => {
    const docs = [...randomCorpus(2_500, 7)];
    // (a delta under minDeltaPostings is left: here every delta is over it)
    const ix = new OwnerKeywordIndex({ minDeltaPostings: 1 });
    // stop the build while it merges, with one document in the delta that takes writes meanwhile
    let i = 0;
    do {
      const [key, d] = docs[i++]!;
      ix.load(key, d.type, d.text, d.lead);
    } while (!ix.segments().merging);
    const [key, d] = docs[i]!;
    ix.load(key, d.type, d.text, d.lead);
    expect(ix.segments().merging).toBe(true);
    const before = ix.search('w1xb w2xc', 10);
    ix.markReady();
    for (let steps = 0; ix.segments().merging || ix.segments().delta > 0; steps++) {
      if (steps > 10_000) throw new Error('the delta was never folded in');
      await new Promise<void>((r) => setImmediate(r));
    }
    expect(ix.search('w1xb w2xc', 10)).toEqual(before);
  });

  it('leaves a small delta after markReady (a loaded snapshot’s reconcile) unmerged, answering the same', async () => {
    const docs = [...randomCorpus(1_200, 11)];
    const ix = new OwnerKeywordIndex({ minDeltaPostings: SMALL_DELTA });
    const whole = new OwnerKeywordIndex({ minDeltaPostings: SMALL_DELTA });
    for (const [key, d] of docs.slice(0, 1_190)) ix.load(key, d.type, d.text, d.lead);
    while (ix.segments().merging) await ix.finishMerge();
    ix.mergeNow();
    expect(ix.segments().delta).toBe(0);
    for (const [key, d] of docs.slice(1_190)) ix.load(key, d.type, d.text, d.lead);
    const small = ix.segments().delta;
    expect(small).toBeGreaterThan(0);
    expect(small).toBeLessThan(SMALL_DELTA);
    ix.markReady();
    for (let t = 0; t < 50; t++) await new Promise<void>((r) => setImmediate(r));
    expect(ix.segments()).toMatchObject({ delta: small, merging: false });
    for (const [key, d] of docs) whole.load(key, d.type, d.text, d.lead);
    whole.markReady();
    whole.mergeNow();
    for (const q of ['w1xb w2xc', 'w3xd', 'w2xc w7xh w9xb']) {
      expect(ix.search(q, 10)).toHaveLength(10);
      expect(ix.search(q, 10)).toEqual(whole.search(q, 10));
    }
  });

  it('merges a large delta in the background, in slices, answering meanwhile', async () => {
    const docs = randomCorpus(1_000, 3);
    const ix = new OwnerKeywordIndex({ minDeltaPostings: SMALL_DELTA });
    ix.markReady();
    // past the delta threshold after the build: a merge is scheduled on the loop
    let i = 0;
    while (ix.segments().delta < 3 * SMALL_DELTA) {
      for (const [key, d] of docs) ix.applyWrite(`${i}-${key}`, d.type, d.text, d.lead);
      i++;
    }
    const before = ix.search('w1xb w2xc', 10);
    let steps = 0;
    while (ix.segments().merging || ix.segments().delta > 0) {
      await new Promise<void>((r) => setImmediate(r));
      steps++;
      expect(ix.search('w1xb w2xc', 10)).toEqual(before);
      if (steps > 10_000) throw new Error('the merge never finished');
    }
    expect(ix.segments().main).toBeGreaterThan(3 * SMALL_DELTA);
    expect(ix.search('w1xb w2xc', 10)).toEqual(before);
  });

  describe('snapshots', () => {
    const dirs: string[] = [];
    afterEach(async () => {
      await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
    });
    async function tmp(): Promise<string> {
      const d = await mkdtemp(path.join(tmpdir(), 'kaboodle-kw-'));
      dirs.push(d);
      return d;
    }

    it('round-trips through saveTo/loadFrom, and the loaded index takes writes', async () => {
      const docs = randomCorpus(1_500, 5);
      const ix = new OwnerKeywordIndex({ minDeltaPostings: SMALL_DELTA });
      for (const [key, d] of docs) ix.load(key, d.type, d.text, d.lead);
      ix.markReady();
      ix.applyWrite('doc-1', 'document', null);
      docs.delete('doc-1');
      const dir = await tmp();
      await ix.saveTo(dir);
      await ix.saveTo(dir); // a second save replaces the first
      expect((await readdir(dir)).sort()).toEqual([
        expect.stringMatching(/^keyword-index-.*\.bin$/),
        'keyword-index.json',
      ]);
      const back = await OwnerKeywordIndex.loadFrom(dir);
      expect(back.state).toBe('ready');
      expect(back.size).toBe(docs.size);
      back.mergeNow(); // doc-1's removal left its postings (and df) until a merge
      expectSameAsReference(back, docs);
      back.applyWrite('doc-2', 'document', 'w0xa w0xa heron');
      back.applyWrite('new', 'inventory_item', 'heron');
      back.remove('doc-3');
      docs.set('doc-2', { type: 'document', text: 'w0xa w0xa heron', lead: '' });
      docs.set('new', { type: 'inventory_item', text: 'heron', lead: '' });
      docs.delete('doc-3');
      expect(back.search('heron', 5).map((h) => h.key)).toEqual(['new', 'doc-2']);
      back.mergeNow();
      expectSameAsReference(back, docs);
    });

    it('saves while writes keep coming, the delta in the snapshot, without waiting for it to empty', async () => {
      const docs = randomCorpus(1_500, 5);
      const ix = new OwnerKeywordIndex({ minDeltaPostings: SMALL_DELTA });
      for (const [key, d] of docs) ix.load(key, d.type, d.text, d.lead);
      ix.markReady();
      for (let i = 0; i < 200; i++) {
        const d = { type: 'document', text: `heron ${'w0xa '.repeat(i % 5)}`, lead: '' };
        ix.applyWrite(`heron-${i}`, d.type, d.text);
        docs.set(`heron-${i}`, d);
      }
      const dir = await tmp();
      let saved = false;
      const saving = ix.saveTo(dir).then(() => (saved = true));
      let n = 0;
      while (!saved) {
        ix.applyWrite(`during-${n++}`, 'document', 'egret');
        await new Promise<void>((r) => setImmediate(r));
        if (n > 20_000) throw new Error('the save waited for the writes to stop');
      }
      await saving;
      const back = await OwnerKeywordIndex.loadFrom(dir);
      // a quiet save leaves the delta as it is (below its threshold: no merge due), and the snapshot carries it
      ix.mergeNow();
      for (let i = 0; i < 5; i++) ix.applyWrite(`quiet-${i}`, 'document', 'kingfisher');
      const quiet = ix.segments();
      expect(quiet.delta).toBeGreaterThan(0);
      await ix.saveTo(dir);
      expect(ix.segments()).toEqual(quiet);
      expect((await OwnerKeywordIndex.loadFrom(dir)).segments()).toEqual(quiet);
      // the writes made before the copy are in, in order; none after
      const during = back.size - docs.size;
      expect(during).toBeGreaterThanOrEqual(0);
      expect(during).toBeLessThanOrEqual(n);
      expect(back.search('egret', 100_000)).toHaveLength(during);
      for (let i = 0; i < during; i++) docs.set(`during-${i}`, { type: 'document', text: 'egret', lead: '' });
      expect(back.search('heron', 500)).toHaveLength(200);
      back.mergeNow();
      expectSameAsReference(back, docs);
    });

    it('discards a snapshot of an older format (no block bounds) instead of misreading it', async () => {
      const ix = new OwnerKeywordIndex({ minDeltaPostings: SMALL_DELTA });
      for (const [key, d] of randomCorpus(300, 9)) ix.load(key, d.type, d.text, d.lead);
      ix.markReady();
      const dir = await tmp();
      await ix.saveTo(dir);
      const header = path.join(dir, 'keyword-index.json');
      const json = JSON.parse(await readFile(header, 'utf8')) as { format: number };
      expect(json.format).toBeGreaterThanOrEqual(2);
      await writeFile(header, JSON.stringify({ ...json, format: 1 }));
      await expect(OwnerKeywordIndex.loadFrom(dir)).rejects.toThrow(/format 1 of keyword-index, expected/);
    });

    it('rejects a missing, truncated or altered snapshot with a clear error', async () => {
      const ix = new OwnerKeywordIndex({ minDeltaPostings: SMALL_DELTA });
      for (const [key, d] of randomCorpus(500, 9)) ix.load(key, d.type, d.text, d.lead);
      ix.markReady();
      await expect(OwnerKeywordIndex.loadFrom(await tmp())).rejects.toThrow(/header unreadable/);
      const dir = await tmp();
      await ix.saveTo(dir);
      const bin = path.join(
        dir,
        (await readdir(dir)).find((f) => f.endsWith('.bin'))!,
      );
      const bytes = await readFile(bin);
      await writeFile(bin, bytes.subarray(0, bytes.length - 100));
      await expect(OwnerKeywordIndex.loadFrom(dir)).rejects.toThrow(/truncated/);
      bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0xff;
      await writeFile(bin, bytes);
      await expect(OwnerKeywordIndex.loadFrom(dir)).rejects.toThrow(/corrupt/);
    });
  });
});
