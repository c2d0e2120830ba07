// The memory index's text analysis, as the LanceDB table's FTS index does it: words of letters and
// digits, lower case, ASCII folding, English stop words, Snowball (Porter2) English stems, tokens of
// more than 40 characters dropped; and a text's adjacent word pairs as terms of their own.
import porter2 from 'wink-porter2-stemmer';

const MAX_TOKEN_CHARS = 40;

// The English stop words of Lucene's (and Elasticsearch's `_english_`) analyser.
const STOP_WORDS = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);

const stems = new Map<string, string>();
function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    s = porter2(word);
    if (stems.size > 200_000) stems.clear();
    stems.set(word, s);
  }
  return s;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** A text's words as the analyser keeps them (folded, lower case, stop words and long tokens out), unstemmed. */
export function contentWords(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const out: string[] = [];
  for (const m of folded.matchAll(WORD)) {
    const w = m[0];
    if (w.length > MAX_TOKEN_CHARS || STOP_WORDS.has(w)) continue;
    out.push(w);
  }
  return out;
}

/** The terms of a text as the index sees them (query and documents alike). */
export function analyse(text: string): string[] {
  return contentWords(text).map(stem);
}

/** Joins a pair's two stems into one term: a digit, which both analysers keep inside a word. */
const PAIR_JOIN = '0';

/**
 * A text's adjacent word pairs as terms ("open0creat file0descriptor"), stop words skipped: the
 * proximity evidence keyword search scores at PAIR_BOOST. Documents carry them in their search text
 * and a query's are matched against them, in the table's full-text index and the memory index alike
 * (both analyse a pair term the same way on either side). A one-word text has none.
 */
export function wordPairs(text: string): string {
  const terms = analyse(text);
  const out: string[] = [];
  for (let i = 1; i < terms.length; i++) out.push(`${terms[i - 1]}${PAIR_JOIN}${terms[i]}`);
  return out.join(' ');
}
