// Enrichment benchmark (offline): NLP model load, ms per document over the evaluation corpus, a
// 40-page document, and peak RSS. Run: node services/processing/bench/enrich.bench.ts [--runs N]
/* eslint-disable no-console -- a command-line benchmark: printing is its output */
import { EVAL_DOCUMENTS } from '../../../tests/eval/documents.ts';
import { createOfflineEnricher, loadNlp } from '../src/enrich/index.ts';
import { argValue, loadNote, median, peakRssMb, printTable, time, timeCpu } from './bench-util.ts';

const RUNS = argValue('--runs', 3);
const [, loadMs] = await time(() => loadNlp());
const enricher = createOfflineEnricher();
const existingTags = [
  { tag: 'machine-learning', count: 12 },
  { tag: 'contracts', count: 7 },
  { tag: 'handmade', count: 20 },
];

const perDoc: number[] = [];
const cpuDoc: number[] = [];
for (let r = 0; r < RUNS; r++) {
  for (const d of EVAL_DOCUMENTS) {
    const [, ms, c] = await timeCpu(() =>
      enricher.enrich({ text: d.text, fileName: d.fileName, existingTags }),
    );
    perDoc.push(ms);
    cpuDoc.push(c);
  }
}
const long = Array.from(
  { length: 40 },
  (_, p) =>
    EVAL_DOCUMENTS.map((d) => d.text.split('\n\n').slice(1).join(' ')).join('\n\n') + `\n\nPage ${p}.`,
).join('\n\n');
const perLong: number[] = [];
const cpuLong: number[] = [];
for (let r = 0; r < RUNS; r++) {
  const [, ms, c] = await timeCpu(() => enricher.enrich({ text: long, existingTags }));
  perLong.push(ms);
  cpuLong.push(c);
}

console.log(
  `Offline enricher: wink-nlp + wink-eng-lite-web-model, compromise; NLP load ${loadMs.toFixed(0)} ms; ${await loadNote()}`,
);
printTable([
  {
    case: `eval corpus (${EVAL_DOCUMENTS.length} docs, ~150-250 words)`,
    'ms/document median': median(perDoc),
    'cpu ms': median(cpuDoc),
    runs: perDoc.length,
  },
  {
    case: `long document (${Math.round(long.length / 1000)}k chars, first 60k analysed)`,
    'ms/document median': median(perLong),
    'cpu ms': median(cpuLong),
    runs: perLong.length,
  },
]);
console.log(`peak RSS ${peakRssMb().toFixed(0)} MB`);
