// USE lite's sentencepiece tokenizer, the same ids as @energetic-ai/embeddings' Tokenizer (a port of
// Google's tfjs-models one; use-lite-tokenizer.test.ts compares them) in linear rather than
// quadratic time: that one copies the rest of the text at every character and allocates per
// candidate piece, 6.7 ms for a 128-word passage — a third of the native model's time.
//
// Same algorithm, quirks kept on purpose: NFKC, "▁" for the start and for each space (only U+0020),
// pieces matched by code point, an unknown character becomes id 0 with score 0, a best score of
// exactly 0 counts as "none yet", ties go to the piece found last, and consecutive unknowns merge.

/** The vocabulary's reserved ids (padding, <s>, </s>, extras): never produced by matching. */
const RESERVED = 6;
const SEPARATOR = 0x2581; // ▁

interface TrieNode {
  children: Map<number, TrieNode>;
  /** Vocabulary id when a piece ends here, else -1. */
  id: number;
  score: number;
  /** Code points from the root. */
  depth: number;
}

const node = (depth: number): TrieNode => ({ children: new Map(), id: -1, score: 0, depth });

export interface UseLiteTokenizer {
  encode(text: string): number[];
}

export function createUseLiteTokenizer(vocabulary: readonly (readonly [string, number])[]): UseLiteTokenizer {
  const root = node(0);
  for (let id = RESERVED; id < vocabulary.length; id++) {
    const [piece, score] = vocabulary[id]!;
    let at = root;
    for (const ch of piece) {
      const cp = ch.codePointAt(0)!;
      let next = at.children.get(cp);
      if (!next) {
        next = node(at.depth + 1);
        at.children.set(cp, next);
      }
      at = next;
    }
    at.id = id;
    at.score = score;
  }
  // The backtrack steps by the piece's UTF-16 length, as the original does.
  const stepOf = vocabulary.map(([piece]) => piece.length);

  return {
    encode(text: string): number[] {
      const normalized = text.normalize('NFKC');
      if (normalized.length === 0) return [];
      const symbols: number[] = [SEPARATOR];
      for (const ch of normalized) symbols.push(ch === ' ' ? SEPARATOR : ch.codePointAt(0)!);
      const n = symbols.length;
      const best = new Float64Array(n + 1);
      const words = new Int32Array(n + 1);
      const relax = (end: number, score: number, id: number) => {
        if (best[end] === 0 || score >= best[end]!) {
          best[end] = score;
          words[end] = id;
        }
      };
      for (let start = 0; start < n; start++) {
        const base = best[start]!;
        let at = root.children.get(symbols[start]!);
        let matched = false;
        for (let i = start; at;) {
          if (at.id >= 0) {
            relax(start + at.depth, at.score + base, at.id);
            matched = true;
          }
          if (++i >= n) break;
          at = at.children.get(symbols[i]!);
        }
        if (!matched) relax(start + 1, base, 0);
      }
      const reversed: number[] = [];
      for (let at = n; at > 0; at -= stepOf[words[at]!]!) reversed.push(words[at]!);
      const ids: number[] = [];
      for (let i = reversed.length - 1; i >= 0; i--) {
        // Consecutive unknowns merge into one (the original merges while walking backwards).
        if (reversed[i] === 0 && i + 1 < reversed.length && reversed[i + 1] === 0) continue;
        ids.push(reversed[i]!);
      }
      return ids;
    },
  };
}
