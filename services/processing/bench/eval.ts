// Quality figures: metadata accuracy per field on the team's written set and on the real-world set
// (tests/eval/real: PDFs from Debian documentation packages, fetched into .cache/eval-real) side by
// side with the misses, search MRR / nDCG@10 for the offline embedder, BM25 and their hybrid, and
// vision accuracy on the generated photos.
// With KABOODLE_EVAL_OPENAI_URL (and KABOODLE_EVAL_OPENAI_MODEL, OPENAI_API_KEY) naming an
// OpenAI-compatible endpoint, the team's set is also enriched by that model (the offline rules as
// its fallback) and both columns are printed side by side.
// Run: node services/processing/bench/eval.ts [--json] [--misses] [--no-photos] [--no-real]
/* eslint-disable no-console -- a command-line report: printing is its output */
import { FIELD_CONFIDENCE, FIELD_THRESHOLD } from '../src/enrich/classify-field.ts';
import { EVAL_DOCUMENTS } from '../../../tests/eval/documents.ts';
import { loadFieldSet } from '../../../tests/eval/real/field-set.ts';
import {
  chooseThreshold,
  fieldOutcome,
  fieldRows,
  fitFieldConfidence,
} from '../../../tests/eval/real/run-fields.ts';
import { compareWithModel } from '../../../tests/eval/generative.ts';
import { evaluateRealPhotos } from '../../../tests/eval/real/run-photos.ts';
import { evaluateRealDocuments } from '../../../tests/eval/real/run-real.ts';
import { runEvaluation } from '../../../tests/eval/run-eval.ts';

const args = process.argv.slice(2);
const figures = await runEvaluation({ photos: !args.includes('--no-photos') });
const real = args.includes('--no-real') ? undefined : await evaluateRealDocuments();
const realPhotos =
  args.includes('--no-real') || args.includes('--no-photos') ? undefined : await evaluateRealPhotos();
const endpoint = process.env.KABOODLE_EVAL_OPENAI_URL;
const generative = endpoint
  ? await compareWithModel({
      baseURL: endpoint,
      model: process.env.KABOODLE_EVAL_OPENAI_MODEL ?? 'gpt-4o-mini',
      ...(process.env.OPENAI_API_KEY ? { apiKey: process.env.OPENAI_API_KEY } : {}),
    })
  : undefined;
// Field (discipline) on real documents of many kinds, with Unclassified as an answer.
const fieldSet = args.includes('--no-real') ? undefined : await loadFieldSet();
const fieldRowsAll = fieldSet
  ? [
      ...fieldRows(fieldSet.documents),
      ...fieldRows(
        EVAL_DOCUMENTS.map((d) => ({
          id: d.id,
          kind: 'team',
          text: d.text,
          fields: [d.expected.field ?? ''],
          half: 'team' as const,
        })),
      ),
    ]
  : [];
if (args.includes('--json')) {
  console.log(JSON.stringify({ ...figures, real: real && { ...real, rows: undefined } }, null, 2));
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
  if (real) {
    const cell = (f?: { accuracy: number; correct: number; total: number }) =>
      f && f.total > 0 ? `${pct(f.accuracy)} (${f.correct}/${f.total})`.padEnd(16) : '—'.padEnd(16);
    const layouts = Object.entries(real.layouts)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
    console.log(
      `\nReal-world set: ${real.documents} PDFs from Debian documentation packages (${layouts})` +
        (real.unavailable.length ? `; ${real.unavailable.length} unavailable` : ''),
    );
    console.log(
      `  ${'field'.padEnd(24)}${'team set'.padEnd(16)}${'real (tuned on)'.padEnd(16)}real held-out (${real.heldOutDocuments}; its misses were read once, 2026-11-26)`,
    );
    for (const f of real.metadata) {
      const team = figures.metadata.find((t) => t.field === f.field);
      const held = real.metadataHeldOut.find((t) => t.field === f.field);
      console.log(`  ${f.field.padEnd(24)}${cell(team)}${cell(f)}${cell(held)}`);
    }
    for (const u of real.unavailable) console.log(`  unavailable: ${u}`);
    console.log(
      '  Misses on the real set (what was read → what the first page prints is in tests/eval/real)',
    );
    for (const f of [...real.metadata, ...real.metadataHeldOut])
      for (const m of f.misses) console.log(`    ${f.field}: ${m.slice(0, 140)}`);
  }
  if (fieldSet) {
    const half = (h: string) => fieldRowsAll.filter((r) => r.half === h);
    const tuneRows = [...half('tune'), ...half('team')];
    console.log(
      `\nField on real documents: ${fieldSet.documents.length} (the PDFs above and ${fieldSet.documents.length - (real?.documents ?? 0)} text documents: licences, a constitution, standards, fortune-cookie files)` +
        (fieldSet.unavailable.length ? `; ${fieldSet.unavailable.length} unavailable` : ''),
    );
    console.log(
      `  shipped: confidence ${JSON.stringify(FIELD_CONFIDENCE)}, Unclassified below ${FIELD_THRESHOLD}`,
    );
    console.log(
      `  refit on tune + team now: ${JSON.stringify(fitFieldConfidence(tuneRows))}; threshold by right − 2×wrong on tune: ${chooseThreshold(tuneRows)}`,
    );
    console.log('  set                      docs   right   wrong class   Unclassified');
    for (const h of ['tune', 'report', 'team']) {
      const o = fieldOutcome(half(h));
      console.log(
        `  ${`${h}${h === 'report' ? ' (never tuned on)' : h === 'team' ? ' (written set)' : ''}`.padEnd(24)} ${String(o.documents).padStart(4)}  ${pct(o.accuracy)}   ${pct(o.wrong)}         ${pct(o.unclassified)}`,
      );
    }
    console.log('  trade-off on report: threshold → right / wrong class / Unclassified');
    for (const t of [0, 0.5, 0.6, 0.7, FIELD_THRESHOLD, 0.8, 0.9]
      .filter((x, i, a) => a.indexOf(x) === i)
      .sort()) {
      const o = fieldOutcome(half('report'), t);
      console.log(
        `    ${t.toFixed(2)}${t === FIELD_THRESHOLD ? '*' : ' '}  ${pct(o.accuracy)} ${pct(o.wrong)} ${pct(o.unclassified)}`,
      );
    }
    for (const m of fieldOutcome(half('report')).misses) console.log(`    miss: ${m.slice(0, 160)}`);
  }
  if (generative) {
    const [offline, model] = generative;
    console.log(
      `\nGenerative (team set, ${EVAL_DOCUMENTS.length} documents)   ${offline.label.padEnd(20)}${model.label}`,
    );
    offline.fields.forEach((f, i) => {
      const m = model.fields[i]!;
      const c = (x: typeof f) =>
        `${pct(x.total ? x.correct / x.total : 0)} (${x.correct}/${x.total})`.padEnd(20);
      console.log(`  ${f.field.padEnd(36)}${c(f)}${c(m)}`);
    });
    for (const f of model.failed) console.log(`  model failed: ${f}`);
  } else {
    console.log(
      '\nGenerative column: set KABOODLE_EVAL_OPENAI_URL (and KABOODLE_EVAL_OPENAI_MODEL) to an OpenAI-compatible endpoint to print it beside the offline rules (the eval tier runs it against a loopback stand-in).',
    );
  }
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
  if (realPhotos) {
    const c = realPhotos.colour;
    console.log(
      `\nReal photos (${realPhotos.photos}: opencv-doc, python3-skimage, python3-sklearn, jigzo-data and gcompris-qt-data images, npm test fixtures; one object, one main colour)` +
        (realPhotos.unavailable.length ? `; ${realPhotos.unavailable.length} unavailable` : ''),
    );
    console.log(`  main colour        ${pct(c.accuracy)}  (${c.correct}/${c.total})`);
    for (const p of realPhotos.parts) console.log(`    ${p.part.padEnd(30)} ${p.correct}/${p.total}`);
    for (const m of c.misses) console.log(`    miss: ${m}`);
    for (const u of realPhotos.unavailable) console.log(`    unavailable: ${u}`);
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
