// The real photos (tests/eval/real/photos.ts) through the offline vision in its worker thread, as
// an upload goes: the object's main colour against what a person names, with the misses.
import { createBarcodeLookup, createOfflineVision, createPooledImageMeasurer } from '@kaboodle/processing';
import { fetchRealPhotos, photoPart } from './photos.ts';

export interface RealPhotoFigures {
  photos: number;
  unavailable: string[];
  colour: { correct: number; total: number; accuracy: number; misses: string[] };
  /** Right out of all, per part of the set (photos.ts: what tuned the rules, what is held out). */
  parts: Array<{ part: string; correct: number; total: number }>;
  /** What the vision named each photo, for the bench. */
  rows: Array<{ id: string; colour: string; label: string; expected: string[] }>; // label: the name given
}

export async function evaluateRealPhotos(): Promise<RealPhotoFigures> {
  const fetched = await fetchRealPhotos();
  const measurer = createPooledImageMeasurer({ timeoutMs: 120_000 });
  const vision = createOfflineVision({ measurer, barcodeLookup: createBarcodeLookup() });
  const rows: RealPhotoFigures['rows'] = [];
  try {
    for (const f of fetched) {
      if (!f.bytes) continue;
      const source = f.photo.source;
      const fileName = (
        'entry' in source && source.entry ? source.entry.replace(/\.webp$/, '.png') : source.path
      )
        .split('/')
        .pop()!;
      const v = await vision.analyze({ bytes: f.bytes, fileName, ocrText: '' });
      rows.push({
        id: f.photo.id,
        colour: v.colors[0]?.name ?? '',
        label: v.name,
        expected: f.photo.colours,
      });
    }
  } finally {
    await vision.close?.();
  }
  const right = rows.filter((r) => r.expected.includes(r.colour));
  return {
    photos: rows.length,
    unavailable: fetched.filter((f) => f.problem).map((f) => `${f.photo.id}: ${f.problem}`),
    colour: {
      correct: right.length,
      total: rows.length,
      accuracy: rows.length ? right.length / rows.length : 0,
      misses: rows
        .filter((r) => !r.expected.includes(r.colour))
        .map((r) => `${r.id}: ${JSON.stringify(r.colour)} (named "${r.label}"), expected ${r.expected[0]}`),
    },
    parts: [...new Set(rows.map((r) => photoPart(r.id)))].map((part) => {
      const of = rows.filter((r) => photoPart(r.id) === part);
      return { part, correct: of.filter((r) => right.includes(r)).length, total: of.length };
    }),
    rows,
  };
}
