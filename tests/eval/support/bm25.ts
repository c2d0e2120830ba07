// A small Okapi BM25 (k1 1.2, b 0.75) with lower-casing, a stop list and light stemming: the
// keyword baseline the embedder is compared with, and half of the hybrid.

const STOP = new Set(
  'a an and are as at be by for from has have how i in is it its of on or that the their this to was were what when which who why will with do does did can my our we you your'.split(
    ' ',
  ),
);

export function tokenize(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .match(/[a-z0-9]+/g) ?? []
  )
    .filter((t) => !STOP.has(t) && t.length > 1)
    .map((t) =>
      t.length > 4 && t.endsWith('ies')
        ? `${t.slice(0, -3)}y`
        : t.length > 3 && t.endsWith('s') && !t.endsWith('ss')
          ? t.slice(0, -1)
          : t,
    );
}

export interface Bm25Index {
  search(query: string, limit?: number): Array<{ id: string; score: number }>;
}

export function createBm25Index(docs: Array<{ id: string; text: string }>, k1 = 1.2, b = 0.75): Bm25Index {
  const tfs = docs.map((d) => {
    const tf = new Map<string, number>();
    const tokens = tokenize(d.text);
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { id: d.id, tf, length: tokens.length };
  });
  const avg = tfs.reduce((s, d) => s + d.length, 0) / Math.max(1, tfs.length);
  const df = new Map<string, number>();
  for (const d of tfs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = tfs.length;
  const idf = (t: string) => {
    const f = df.get(t) ?? 0;
    return Math.log(1 + (n - f + 0.5) / (f + 0.5));
  };
  return {
    search(query, limit = 10) {
      const terms = [...new Set(tokenize(query))];
      return tfs
        .map((d) => {
          let score = 0;
          for (const t of terms) {
            const f = d.tf.get(t) ?? 0;
            if (f === 0) continue;
            score += idf(t) * ((f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / avg)));
          }
          return { id: d.id, score };
        })
        .filter((r) => r.score > 0)
        .sort((a, b2) => b2.score - a.score)
        .slice(0, limit);
    },
  };
}
