// The graph view's links: one per pair of documents, carrying every reason they are linked.
import { describe, expect, it } from 'vitest';
import { buildGraphLinks, CLIQUE_LIMIT, degrees, shortLabel } from './graph-links.ts';
import { doc } from './test-documents.ts';

describe('graph links', () => {
  const docs = [
    doc('a', { author: 'Jane Doe', hashtags: [{ tag: '#Ethics', relevancy: 0.9 }], influenced_by: ['Kant'] }),
    doc('b', { author: 'jane  doe', hashtags: [{ tag: 'ethics', relevancy: 0.4 }] }),
    doc('c', { author: 'Kant', influenced_by: ['Hume'] }),
    doc('d', { influenced_by: ['hume'] }),
  ];

  it('links shared hashtags and authors (normalised) into one link per pair', () => {
    const links = buildGraphLinks(docs);
    const ab = links.find((l) => l.source === 'a' && l.target === 'b');
    expect(ab?.kinds.sort()).toEqual(['author', 'hashtag']);
    expect(ab?.reasons).toContain('#Ethics');
  });

  it('links influences: shared ones, and an influence that is another document’s author', () => {
    const links = buildGraphLinks(docs);
    expect(links.find((l) => l.source === 'a' && l.target === 'c')?.reasons).toEqual(['influenced by Kant']);
    expect(links.find((l) => l.source === 'c' && l.target === 'd')?.kinds).toEqual(['influence']);
  });

  it('adds similarity edges only between loaded documents and honours the toggles', () => {
    const sim = [
      { source: 'd', target: 'a', similarity: 0.81 },
      { source: 'a', target: 'zz', similarity: 0.99 },
    ];
    const onlySimilarity = buildGraphLinks(docs, sim, new Set(['similarity']));
    expect(onlySimilarity).toEqual([
      { source: 'a', target: 'd', kinds: ['similarity'], reasons: ['similarity 0.81'], similarity: 0.81 },
    ]);
    expect(buildGraphLinks(docs, sim, new Set())).toEqual([]);
  });

  it('rings a value shared by many documents instead of linking every pair', () => {
    const many = Array.from({ length: CLIQUE_LIMIT + 8 }, (_, i) =>
      doc(`m${i}`, { hashtags: [{ tag: 'common', relevancy: 1 }] }),
    );
    const links = buildGraphLinks(many);
    expect(links).toHaveLength(many.length);
    expect([...degrees(links).values()].every((n) => n === 2)).toBe(true);
  });
});

describe('a graph node label', () => {
  it('keeps a short title whole', () => {
    expect(shortLabel('Harbour Rope Knots')).toBe('Harbour Rope Knots');
  });

  it('shortens a long one at a word boundary, so every word shown is in the node’s name', () => {
    const title = 'Glass Trade Beads of the Venetian Lagoon';
    const label = shortLabel(title);
    expect(label).toBe('Glass Trade Beads of the…');
    for (const word of label.replace('…', '').split(' ')) expect(title.split(' ')).toContain(word);
    expect(shortLabel('Weaving Palm Leaf Fans: A Maker’s Notes')).toBe('Weaving Palm Leaf Fans: A…');
  });

  it('cuts a single long word where it must', () => {
    expect(shortLabel('Pneumonoultramicroscopicsilicovolcanoconiosis')).toBe('Pneumonoultramicroscopicsil…');
  });
});
