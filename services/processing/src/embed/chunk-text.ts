// Long texts are embedded as passages: sentence-aligned chunks of about `targetWords` words, each
// repeating the previous chunk's last sentence(s) (the overlap) so an idea cut at a boundary is
// still whole in one chunk. Offsets point into the original text for passage excerpts.

export interface TextChunk {
  text: string;
  /** Character offsets in the source text: [start, end). */
  start: number;
  end: number;
}

export interface ChunkOptions {
  /** Words per chunk, roughly (default 120). */
  targetWords?: number;
  /** Words of overlap carried into the next chunk (default 25). */
  overlapWords?: number;
}

interface Sentence {
  start: number;
  end: number;
  words: number;
}

const WORD = /\S+/g;

function countWords(s: string): number {
  return s.match(WORD)?.length ?? 0;
}

/** Sentences as offset ranges: split after . ! ? (not after initials or common abbreviations) and at blank lines. */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const boundary = /([.!?]["')\]]?)\s+(?=[A-Z0-9"'([])|\n\s*\n/g;
  let start = 0;
  let m: RegExpExecArray | null;
  while ((m = boundary.exec(text)) !== null) {
    const endOfSentence = m.index + (m[1]?.length ?? 0);
    const before = text.slice(Math.max(start, endOfSentence - 6), endOfSentence);
    // "e.g. The", "Dr. Smith", "J. Doe": not a sentence end.
    if (m[1] && /(?:\b[A-Z]|\be\.g|\bi\.e|\bDr|\bMr|\bMrs|\bMs|\bSt|\bvs|\bet al|\bNo|\bFig)\.$/.test(before))
      continue;
    const end = m[1] ? endOfSentence : m.index;
    if (text.slice(start, end).trim()) out.push(trimRange(text, start, end));
    start = m.index + m[0].length;
  }
  if (text.slice(start).trim()) out.push(trimRange(text, start, text.length));
  return out;
}

function trimRange(text: string, start: number, end: number): Sentence {
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { start, end, words: countWords(text.slice(start, end)) };
}

/** A very long "sentence" (a table, a list without full stops) is cut at word boundaries. */
function splitLong(text: string, s: Sentence, max: number): Sentence[] {
  if (s.words <= max) return [s];
  const words = [...text.slice(s.start, s.end).matchAll(/\S+/g)];
  const parts: Sentence[] = [];
  for (let i = 0; i < words.length; i += max) {
    const group = words.slice(i, i + max);
    const first = group[0]!;
    const last = group[group.length - 1]!;
    parts.push({
      start: s.start + first.index,
      end: s.start + last.index + last[0].length,
      words: group.length,
    });
  }
  return parts;
}

export function chunkText(text: string, options: ChunkOptions = {}): TextChunk[] {
  const target = options.targetWords ?? 120;
  const overlap = options.overlapWords ?? 25;
  if (target < 1 || overlap < 0 || overlap >= target)
    throw new Error('chunkText: need 0 <= overlapWords < targetWords');
  const sentences = splitSentences(text).flatMap((s) => splitLong(text, s, target));
  const chunks: TextChunk[] = [];
  let i = 0;
  while (i < sentences.length) {
    let j = i;
    let words = 0;
    while (j < sentences.length && (j === i || words + sentences[j]!.words <= target)) {
      words += sentences[j]!.words;
      j++;
    }
    const start = sentences[i]!.start;
    const end = sentences[j - 1]!.end;
    chunks.push({ text: text.slice(start, end), start, end });
    if (j >= sentences.length) break;
    // Step back over trailing sentences that fit in the overlap, but always move forward.
    let k = j;
    let carried = 0;
    while (k - 1 > i && carried + sentences[k - 1]!.words <= overlap) {
      carried += sentences[k - 1]!.words;
      k--;
    }
    // Overlap only when the next chunk still gains a new sentence; else it would repeat this one.
    i = carried + sentences[j]!.words <= target ? k : j;
  }
  return chunks;
}
