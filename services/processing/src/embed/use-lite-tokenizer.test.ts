// The linear-time tokenizer against the package's own (the reference the tfjs graph was used with):
// the same ids for edge cases and for a few hundred seeded random texts mixing ASCII, accented and
// CJK letters, emoji, control characters and runs of spaces.
import { describe, expect, it } from 'vitest';
import { readUseLiteVocabulary } from './use-lite-onnx.ts';
import { createUseLiteTokenizer } from './use-lite-tokenizer.ts';

async function referenceTokenizer(vocabulary: [string, number][]) {
  const { EmbeddingsModel } = (await import('@energetic-ai/embeddings')) as unknown as {
    EmbeddingsModel: new (data: { vocabulary: [string, number][]; model: unknown }) => {
      tokenizer: { encode(text: string): number[] };
    };
  };
  return new EmbeddingsModel({ vocabulary, model: null }).tokenizer;
}

/** A small deterministic generator (mulberry32), so a failure names a reproducible text. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('USE lite tokenizer', () => {
  it('gives the package tokenizer’s ids', async () => {
    const vocabulary = readUseLiteVocabulary();
    const reference = await referenceTokenizer(vocabulary);
    const tokenizer = createUseLiteTokenizer(vocabulary);
    const texts = [
      '',
      ' ',
      '  two  spaces ',
      'hello',
      'A red ceramic bowl with a glazed rim, handmade in Portugal.',
      'Café crème, naïve façade — 東京の市場 (Tokyo market) #42: €3.50!',
      'Ｆｕｌｌｗｉｄｔｈ letters and the ﬁ ligature (NFKC)',
      '😀😀 x 😀 unknown runs ¿¿¿',
      'tabs\tand\nnew lines\r\nstay characters',
    ];
    const random = seeded(42);
    const words =
      'the cooperative records every trade in a ledger kept at market hall woven fans clay bowls'.split(' ');
    for (let i = 0; i < 300; i++) {
      let s = '';
      const length = 1 + Math.floor(random() * 300);
      for (let k = 0; k < length; k++) {
        const r = random();
        s +=
          r < 0.15
            ? ' '
            : r < 0.2
              ? String.fromCodePoint(0x80 + Math.floor(random() * 0x3000))
              : r < 0.22
                ? '😀'
                : r < 0.5
                  ? words[Math.floor(random() * words.length)]!
                  : String.fromCharCode(33 + Math.floor(random() * 94));
      }
      texts.push(s);
    }
    for (const text of texts)
      expect(tokenizer.encode(text), JSON.stringify(text)).toEqual(reference.encode(text));
  }, 60_000);
});
