// Extractive ranking over wink-nlp sentences: TextRank (Mihalcea & Tarau 2004) for sentences, with
// lemma overlap normalised by sentence lengths as the edge weight, and scored noun phrases for
// key phrases (the hashtag candidates).
import type { WinkSentence, WinkToken } from './nlp.ts';
import { stemWord } from './tag-vocabulary.ts';

const CONTENT_POS = new Set(['NOUN', 'PROPN', 'ADJ', 'VERB']);

function contentLemmas(tokens: WinkToken[]): string[] {
  return tokens
    .filter((t) => t.type === 'word' && !t.stop && CONTENT_POS.has(t.pos) && t.normal.length > 2)
    .map((t) => t.lemma);
}

/** PageRank scores (sum 1) for each sentence. */
export function textRank(sentences: WinkSentence[], iterations = 30, damping = 0.85): number[] {
  const n = sentences.length;
  if (n === 0) return [];
  if (n === 1) return [1];
  const sets = sentences.map((s) => new Set(contentLemmas(s.tokens)));
  const w: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = sets[i]!;
      const b = sets[j]!;
      if (a.size < 2 || b.size < 2) continue;
      let common = 0;
      for (const x of a) if (b.has(x)) common++;
      if (common === 0) continue;
      const sim = common / (Math.log(a.size) + Math.log(b.size));
      w[i]![j] = sim;
      w[j]![i] = sim;
    }
  }
  const outSum = w.map((row) => row.reduce((s, x) => s + x, 0));
  let score = new Array<number>(n).fill(1 / n);
  for (let it = 0; it < iterations; it++) {
    const next = new Array<number>(n).fill((1 - damping) / n);
    for (let j = 0; j < n; j++) {
      if (outSum[j] === 0) {
        // Dangling sentence: spread its rank evenly so scores stay a distribution.
        for (let i = 0; i < n; i++) next[i] = next[i]! + (damping * score[j]!) / n;
        continue;
      }
      for (let i = 0; i < n; i++) {
        const wij = w[j]![i]!;
        if (wij > 0) next[i] = next[i]! + (damping * score[j]! * wij) / outSum[j]!;
      }
    }
    score = next;
  }
  return score;
}

export interface KeyPhrase {
  phrase: string;
  score: number;
  occurrences: number;
}

/** Words too generic to be a tag on their own. */
const GENERIC = new Set([
  'paper',
  'study',
  'article',
  'section',
  'figure',
  'table',
  'result',
  'approach',
  'method',
  'way',
  'time',
  'year',
  'work',
  'use',
  'case',
  'number',
  'part',
  'example',
  'thing',
  'fact',
  'point',
  'memo',
  'memorandum',
  'essay',
  'report',
  'page',
  'chapter',
  'author',
  'question',
  'answer',
  'conclusion',
  'introduction',
  'abstract',
  'problem',
  'issue',
  'plan',
  'document',
  'today',
  'other',
  'first',
  'second',
  'new',
  'many',
  'much',
  'more',
  'most',
  'such',
  'same',
  'different',
  'important',
  'lot',
  'kind',
  'type',
  'level',
  'term',
  'end',
  'people',
  'world',
  'reference',
  'references',
  'vol',
  'al',
  'thanks',
  'thank',
]);

/** Days, months and clock words: when a note was written, never what it is about. */
const TIME_WORDS = new Set([
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
  'morning',
  'afternoon',
  'evening',
  'night',
  'noon',
  'midnight',
  'tonight',
  'tomorrow',
  'yesterday',
  'weekend',
  'week',
  'day',
  'hour',
  'minute',
  'month',
  'spring',
  'summer',
  'autumn',
  'winter',
  'season',
]);

/**
 * A word as the text spells it, lower-cased: wink-nlp's normal and lemma forms use American
 * spelling ("HARBOUR" → "harbor"), and a tag must read as the document does. The head of a phrase
 * is made singular by taking off what the lemma took off the normal form ("harbours" → "harbour");
 * an irregular plural ("children") keeps the lemma.
 */
function spelledAsWritten(t: WinkToken, head: boolean): string {
  const own = t.value.toLowerCase();
  if (!head || t.lemma === t.normal) return own;
  if (!t.normal.startsWith(t.lemma)) return t.lemma;
  const suffix = t.normal.slice(t.lemma.length);
  return own.endsWith(suffix) ? own.slice(0, own.length - suffix.length) : t.lemma;
}

/**
 * Noun phrases (adjective/noun runs ending in a noun, 1–3 words), scored by occurrences weighted
 * by the rank of the sentences they occur in, longer phrases slightly favoured.
 */
export function keyPhrases(sentences: WinkSentence[], ranks: number[], max = 15): KeyPhrase[] {
  const n = Math.max(1, sentences.length);
  const acc = new Map<string, { score: number; occurrences: number; display: string }>();
  sentences.forEach((s, si) => {
    const weight = 1 + (ranks[si] ?? 0) * n;
    let run: WinkToken[] = [];
    const flush = () => {
      // Trim to end on a noun; phrases of 1-3 words.
      while (run.length > 0 && !['NOUN', 'PROPN'].includes(run[run.length - 1]!.pos)) run.pop();
      for (let len = Math.min(3, run.length); len >= 1; len--) {
        const words = run.slice(run.length - len);
        if (words.some((t) => t.normal.length < 3 || t.stop || (GENERIC.has(t.lemma) && len === 1))) continue;
        // "friday noon", "good summer": a phrase about a time is not a subject.
        const head = words[words.length - 1]!;
        if (TIME_WORDS.has(head.lemma) || TIME_WORDS.has(head.normal)) continue;
        const key = words.map((t, i) => spelledAsWritten(t, i === words.length - 1)).join(' ');
        if (GENERIC.has(key)) continue;
        const e = acc.get(key) ?? { score: 0, occurrences: 0, display: key };
        e.score += weight * (1 + 0.5 * (len - 1));
        e.occurrences++;
        acc.set(key, e);
      }
      run = [];
    };
    for (const t of s.tokens) {
      if (
        t.type === 'word' &&
        !t.stop &&
        ['NOUN', 'PROPN', 'ADJ'].includes(t.pos) &&
        /^[a-z][a-z-]*$/i.test(t.value)
      )
        run.push(t);
      else flush();
    }
    flush();
  });
  const ranked = [...acc.entries()]
    .map(([phrase, e]) => ({ phrase, score: e.score, occurrences: e.occurrences }))
    // A phrase seen once in a long text is noise; in a short one it may be all there is.
    .filter((p) => p.occurrences > 1 || sentences.length < 8)
    .sort((a, b) => b.score - a.score);
  // "stream turbine" adds nothing next to a better-scored "tidal stream turbine". (The reverse is not
  // true: "soil carbon" says more than a better-scored "carbon", so longer phrases stay.)
  const out: KeyPhrase[] = [];
  const stems = (phrase: string) => ` ${phrase.split(' ').map(stemWord).join(' ')} `;
  const kept: string[] = [];
  for (const p of ranked) {
    if (out.length >= max) break;
    const padded = stems(p.phrase);
    if (kept.some((q) => q.includes(padded))) continue;
    out.push(p);
    kept.push(padded);
  }
  return out;
}
