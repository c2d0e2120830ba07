import { describe, expect, it } from 'vitest';
import { chunkText, splitSentences } from './chunk-text.ts';

describe('splitSentences', () => {
  it('splits after full stops but not after initials or common abbreviations', () => {
    const text =
      'Dr. Smith met J. Doe at noon. It rained! The e.g. case is odd.\n\nA new paragraph starts here';
    const sentences = splitSentences(text).map((s) => text.slice(s.start, s.end));
    expect(sentences).toEqual([
      'Dr. Smith met J. Doe at noon.',
      'It rained!',
      'The e.g. case is odd.',
      'A new paragraph starts here',
    ]);
  });
});

describe('chunkText', () => {
  const text = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} has exactly seven words.`).join(
    ' ',
  );

  it('keeps chunks near the target size, aligned to sentences, with offsets into the source', () => {
    const chunks = chunkText(text, { targetWords: 21, overlapWords: 0 });
    expect(chunks).toHaveLength(10);
    for (const c of chunks) {
      expect(text.slice(c.start, c.end)).toBe(c.text);
      expect(c.text.split(/\s+/)).toHaveLength(21);
      expect(c.text.endsWith('.')).toBe(true);
    }
  });

  it('repeats the previous chunk’s last sentence when it fits in the overlap, and always moves forward', () => {
    const chunks = chunkText(text, { targetWords: 21, overlapWords: 7 });
    expect(chunks[1]!.text.startsWith('Sentence number 2 ')).toBe(true);
    expect(chunks.at(-1)!.text.endsWith('Sentence number 29 has exactly seven words.')).toBe(true);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBeGreaterThan(chunks[i - 1]!.start);
  });

  it('cuts a run-on "sentence" (a table, a list) at word boundaries', () => {
    const list = `${'item '.repeat(250)}end.`;
    const chunks = chunkText(list, { targetWords: 100, overlapWords: 10 });
    expect(chunks.map((c) => c.text.split(/\s+/).length)).toEqual([100, 100, 51]);
  });

  it('rejects an overlap as large as the chunk', () => {
    expect(() => chunkText(text, { targetWords: 10, overlapWords: 10 })).toThrow(/overlapWords/);
  });
});
