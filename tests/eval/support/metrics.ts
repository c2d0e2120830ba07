// Ranking metrics and fusion for the evaluation: MRR, nDCG@k with graded relevance, and
// reciprocal rank fusion (Cormack et al. 2009, k = 60) for the hybrid ranking.

export function reciprocalRank(ranking: string[], relevant: Record<string, number>): number {
  const i = ranking.findIndex((id) => (relevant[id] ?? 0) > 0);
  return i < 0 ? 0 : 1 / (i + 1);
}

export function ndcgAt(ranking: string[], relevant: Record<string, number>, k = 10): number {
  const gain = (g: number) => 2 ** g - 1;
  let dcg = 0;
  ranking.slice(0, k).forEach((id, i) => {
    dcg += gain(relevant[id] ?? 0) / Math.log2(i + 2);
  });
  const ideal = Object.values(relevant)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((s, g, i) => s + gain(g) / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

export function reciprocalRankFusion(rankings: string[][], k = 60): string[] {
  const score = new Map<string, number>();
  for (const ranking of rankings) {
    ranking.forEach((id, i) => score.set(id, (score.get(id) ?? 0) + 1 / (k + i + 1)));
  }
  return [...score.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

export const mean = (xs: number[]): number =>
  xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length;

export const median = (xs: number[]): number => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Compare two field values as a person would: case, punctuation and spacing do not matter. */
export function sameText(a: string | undefined, b: string | undefined): boolean {
  const norm = (s: string | undefined) =>
    (s ?? '')
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  return norm(a) === norm(b) && norm(a) !== '';
}

/** Every expected surname appears in the author field, and nothing else is there. */
export function sameAuthors(found: string, surnames: string[]): boolean {
  const f = found
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
  const names = f
    .split(/,|;|\band\b|&/)
    .map((s) => s.trim())
    .filter(Boolean);
  return (
    names.length === surnames.length &&
    surnames.every((s) =>
      f.includes(
        s
          .toLowerCase()
          .normalize('NFKD')
          .replace(/[\u0300-\u036f]/g, ''),
      ),
    )
  );
}
