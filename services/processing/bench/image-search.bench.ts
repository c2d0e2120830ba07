// "Find an item by photo" quality and cost: the re-photographed evaluation set (generated offline:
// each item photographed once for the catalogue and again at another angle, distance, crop, light,
// background, focus and JPEG quality, with near-twins on purpose) ranked by cosine similarity.
// Prints top-1 / top-5 for the shipped image embedding beside simpler vectors (a colour histogram
// alone, the backbone's last layer alone), and the embedding's ms per photo.
// Run: node services/processing/bench/image-search.bench.ts [--items N] [--rephotos N]
/* eslint-disable no-console -- a command-line benchmark: printing is its output */
import sharp from 'sharp';
import {
  colourHistogram,
  embedImage,
  IMAGE_EMBEDDING_DIMENSIONS,
  IMAGE_EMBEDDING_MODEL,
} from '../src/vision/index.ts';
import { rephotographedItems } from '../src/vision/test-fixtures/rephotographed-items.ts';
import { argValue, loadNote, median, peakRssMb, printTable, time } from './bench-util.ts';

const ITEMS = argValue('--items', 60);
const REPHOTOS = argValue('--rephotos', 3);
const items = await rephotographedItems(ITEMS, REPHOTOS);

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

function topK(catalogue: Float32Array[], queries: { item: number; vector: Float32Array }[]) {
  let top1 = 0;
  let top5 = 0;
  for (const q of queries) {
    const ranked = catalogue
      .map((c, i) => [dot(q.vector, c), i] as const)
      .sort((a, b) => b[0] - a[0])
      .map(([, i]) => i);
    if (ranked[0] === q.item) top1++;
    if (ranked.slice(0, 5).includes(q.item)) top5++;
  }
  return { top1: top1 / queries.length, top5: top5 / queries.length };
}

const raw = async (bytes: Buffer) =>
  new Uint8Array(await sharp(bytes).resize(512, 512, { fit: 'fill' }).removeAlpha().raw().toBuffer());

// the shipped embedding (first call loads the model)
const [, coldMs] = await time(() => embedImage(items[0]!.catalogue));
const ms: number[] = [];
const embed = async (bytes: Buffer) => {
  const [v, t] = await time(() => embedImage(bytes));
  ms.push(t);
  return v;
};
const catalogue: Float32Array[] = [];
for (const it of items) catalogue.push(await embed(it.catalogue));
const queries: { item: number; vector: Float32Array }[] = [];
for (const [item, it] of items.entries())
  for (const r of it.rephotos) queries.push({ item, vector: await embed(r) });

// baselines from the same pixels: the colour histogram alone, the last backbone layer alone
const histCatalogue = await Promise.all(items.map(async (it) => colourHistogram(await raw(it.catalogue))));
const histQueries = await Promise.all(
  items.flatMap((it, item) =>
    it.rephotos.map(async (r) => ({ item, vector: colourHistogram(await raw(r)) })),
  ),
);
const LAST = 720; // expanded_conv_14's squeeze-excite average comes first in the vector
const unit = (v: Float32Array) => {
  const n = Math.sqrt(dot(v, v)) || 1;
  return v.map((x) => x / n);
};
const lastCatalogue = catalogue.map((v) => unit(v.slice(0, LAST)));
const lastQueries = queries.map((q) => ({ item: q.item, vector: unit(q.vector.slice(0, LAST)) }));

const sorted = [...ms].sort((a, b) => a - b);
console.log(
  `Find by photo: ${ITEMS} catalogued items, ${queries.length} re-photographs (top-k over all ${ITEMS}); ${await loadNote()}`,
);
const fmt = (r: { top1: number; top5: number }) => ({
  'top-1': `${(r.top1 * 100).toFixed(1)}%`,
  'top-5': `${(r.top5 * 100).toFixed(1)}%`,
});
printTable([
  {
    vector: `${IMAGE_EMBEDDING_MODEL} (${IMAGE_EMBEDDING_DIMENSIONS}-d, shipped)`,
    ...fmt(topK(catalogue, queries)),
  },
  { vector: 'last backbone layer alone (720-d)', ...fmt(topK(lastCatalogue, lastQueries)) },
  { vector: 'HSV colour histogram alone (72-d)', ...fmt(topK(histCatalogue, histQueries)) },
  { vector: 'chance', 'top-1': `${(100 / ITEMS).toFixed(1)}%`, 'top-5': `${(500 / ITEMS).toFixed(1)}%` },
]);
printTable([
  { case: 'image embedding: first photo (loads the model)', ms: coldMs },
  { case: 'image embedding: ms per photo, median', ms: median(ms) },
  { case: 'image embedding: ms per photo, p95', ms: sorted[Math.floor(sorted.length * 0.95)]! },
]);
console.log(`peak RSS ${peakRssMb().toFixed(0)} MB`);
