// embedDocument with a counting stand-in model (letter counts): which texts reach the model.
import { describe, expect, it } from 'vitest';
import { createBatchingEmbedder } from './batching-embedder.ts';
import { documentHeadline, embedDocument } from './document-embedding.ts';

function countingModel() {
  const seen: string[] = [];
  const embedder = createBatchingEmbedder({
    space: () => ({ provider: 'test', model: 'letters', dimensions: 26 }),
    maxBatch: 16,
    maxChars: 4000,
    cacheSize: 0,
    async embedBatch(texts) {
      seen.push(...texts);
      return texts.map((t) => {
        const v = new Array<number>(26).fill(0);
        for (const ch of t.toLowerCase()) if (ch >= 'a' && ch <= 'z') v[ch.charCodeAt(0) - 97]! += 1;
        return v;
      });
    },
  });
  return { embedder, seen };
}

const sentence = (i: number) => `Sentence number ${i} has exactly seven words.`;

describe('embedDocument', () => {
  it('embeds a short note once, as one passage with offsets into the text, plus the headline', async () => {
    const { embedder, seen } = countingModel();
    const text = `\n  ${Array.from({ length: 20 }, (_, i) => sentence(i)).join(' ')}  \n`;
    const doc = await embedDocument(embedder, text, { headline: 'Notes. seven words' });
    expect(doc.passages).toHaveLength(1);
    expect(text.slice(doc.passages[0]!.start, doc.passages[0]!.end)).toBe(text.trim());
    expect(seen).toEqual([text.trim(), 'Notes. seven words']);
  });

  it('cuts a text longer than singlePassageWords into overlapping chunks', async () => {
    const { embedder } = countingModel();
    const text = Array.from({ length: 30 }, (_, i) => sentence(i)).join(' ');
    const one = await embedDocument(embedder, text, { targetWords: 140 });
    expect(one.passages).toHaveLength(1);
    const many = await embedDocument(embedder, text, { targetWords: 140, singlePassageWords: 100 });
    expect(many.passages.length).toBeGreaterThan(1);
  });
});

describe('documentHeadline', () => {
  it('is the title and the tags in words, without the summary the passages already hold', () => {
    expect(
      documentHeadline({
        title: ' Clay bowls ',
        hashtags: [{ tag: 'river-valley' }, { tag: 'market' }],
      }),
    ).toBe('Clay bowls. river valley, market');
    expect(documentHeadline({ title: '', hashtags: [] })).toBe('');
  });
});
