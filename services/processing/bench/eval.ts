// Quality figures: metadata accuracy per field, search MRR / nDCG@10 for the offline embedder,
// BM25 and their hybrid side by side, and vision accuracy on the generated photos.
// Run: node services/processing/bench/eval.ts [--json] [--misses] [--no-photos]
/* eslint-disable no-console -- a command-line report: printing is its output */
import { runEvaluation } from '../../../tests/eval/run-eval.ts';

const args = process.argv.slice(2);
const figures = await runEvaluation({ photos: !args.includes('--no-photos') });
if (args.includes('--json')) {
  console.log(JSON.stringify(figures, null, 2));
} else {
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`.padStart(5);
  console.log(`Corpus: ${figures.documents} documents, ${figures.queries} queries, ${figures.photos} photos`);
  console.log(
    `\nMetadata accuracy (offline enricher)     all   held-out (${figures.heldOutDocuments} docs written after the rules were frozen)`,
  );
  figures.metadata.forEach((f, i) => {
    const h = figures.metadataHeldOut[i]!;
    console.log(
      `  ${f.field.padEnd(18)} ${pct(f.accuracy)}  (${f.correct}/${f.total})`.padEnd(40) +
        `${pct(h.accuracy)}  (${h.correct}/${h.total})`,
    );
  });
  console.log(
    `\nShort documents (${figures.shortDocuments}: a paragraph, a few lines, a list, a bare byline)`,
  );
  for (const f of [...figures.metadataShort, ...figures.shortText].filter((x) => x.total > 0))
    console.log(`  ${f.field.padEnd(18)} ${pct(f.accuracy)}  (${f.correct}/${f.total})`);
  console.log('\nSearch quality             MRR   nDCG@10');
  for (const s of figures.search)
    console.log(`  ${s.method.padEnd(22)} ${s.mrr.toFixed(3)}   ${s.ndcg10.toFixed(3)}`);
  if (figures.vision.length) {
    console.log('\nVision accuracy (offline)');
    for (const f of figures.vision)
      console.log(`  ${f.field.padEnd(18)} ${pct(f.accuracy)}  (${f.correct}/${f.total})`);
  }
  console.log(
    `\nMedian enrichment ${figures.enrichMsMedian.toFixed(1)} ms/document; median OCR+vision ${figures.visionMsMedian.toFixed(0)} ms/photo`,
  );
  if (args.includes('--misses')) {
    console.log('\nMisses');
    for (const f of [...figures.metadata, ...figures.shortText, ...figures.vision])
      for (const m of f.misses) console.log(`  ${f.field}: ${m}`);
  }
}
