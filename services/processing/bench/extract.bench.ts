// Extraction benchmark: median ms per page for text PDFs, OCR ms per page (scanned PDF pages and
// images), DOCX/DOC/TXT/HTML ms per file, worker-pool overhead, and peak RSS. Fixtures are generated
// offline. Run: node services/processing/bench/extract.bench.ts [--json] [--runs N]
/* eslint-disable no-console -- a command-line benchmark: printing is its output */
import { createLocalExtractor } from '../src/extract/local-extractor.ts';
import { createPooledExtractor } from '../src/extract/pooled-extractor.ts';
import type { ExtractInput, Extractor } from '../src/extract/extractor.ts';
import { encodeText, makeDocx, makePdf, textImage } from '../src/extract/test-fixtures/generate-documents.ts';
import { wordDoc } from '../src/extract/test-fixtures/generate-containers.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const runsArg = args.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(args[runsArg + 1]) : 5;
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs must be a positive integer');

const LOREM =
  'Kaboodle keeps documents and inventory in one place. Each file is read, summarised and tagged so that it can be found again by meaning as well as by words. ';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface Row {
  case: string;
  unit: string;
  median: number;
  min: number;
  coldMs: number;
}

async function measure(
  extractor: Extractor,
  name: string,
  input: ExtractInput,
  perUnit: number,
  unit: string,
): Promise<Row> {
  const coldStart = performance.now();
  await extractor.extract(input);
  const coldMs = performance.now() - coldStart;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await extractor.extract(input);
    times.push((performance.now() - t) / perUnit);
  }
  return { case: name, unit, median: median(times), min: Math.min(...times), coldMs };
}

const textPages = 20;
const textPdf = await makePdf({
  title: 'Bench',
  pages: Array.from({ length: textPages }, (_, p) =>
    Array.from({ length: 40 }, (_, l) => `${p + 1}.${l + 1} ${LOREM.slice(0, 80)}`),
  ),
});
const scannedPages = 3;
const scannedPdf = await makePdf({
  scannedPages: Array.from({ length: scannedPages }, (_, p) => [
    `Scanned page ${p + 1}`,
    'Invoice number 4711 for glass beads',
    'Total due 128.50 EUR',
    'Thank you for your order',
  ]),
});
const image = await textImage(['Glass beads, crimson, 200 pieces', 'Batch 2024-17, made in Accra'], {
  format: 'jpeg',
});
const docx = await makeDocx({ title: 'Bench', paragraphs: Array.from({ length: 200 }, () => LOREM) });
const doc = wordDoc({ title: 'Bench', paragraphs: Array.from({ length: 200 }, () => LOREM) });
const txt = encodeText(LOREM.repeat(2000), 'windows-1252');
const html = Buffer.from(
  `<!doctype html><html lang="en"><head><title>Bench</title><meta name="author" content="A. Writer"></head><body><nav>Home About</nav><article>${Array.from(
    { length: 60 },
    () => `<p>${LOREM}</p>`,
  ).join('')}</article></body></html>`,
);

const local = createLocalExtractor();
const rows: Row[] = [];
try {
  rows.push(
    await measure(
      local,
      `text PDF (${textPages} pages)`,
      { bytes: textPdf, fileName: 'a.pdf' },
      textPages,
      'ms/page',
    ),
  );
  rows.push(
    await measure(
      local,
      `scanned PDF OCR (${scannedPages} pages)`,
      { bytes: scannedPdf, fileName: 's.pdf' },
      scannedPages,
      'ms/page',
    ),
  );
  rows.push(
    await measure(local, 'JPEG OCR (1400 px wide)', { bytes: image, fileName: 'i.jpg' }, 1, 'ms/image'),
  );
  rows.push(await measure(local, 'DOCX (200 paragraphs)', { bytes: docx, fileName: 'a.docx' }, 1, 'ms/file'));
  rows.push(await measure(local, 'DOC (200 paragraphs)', { bytes: doc, fileName: 'a.doc' }, 1, 'ms/file'));
  rows.push(
    await measure(
      local,
      `TXT windows-1252 (${Math.round(txt.length / 1024)} KiB)`,
      { bytes: txt, fileName: 'a.txt' },
      1,
      'ms/file',
    ),
  );
  rows.push(
    await measure(
      local,
      'HTML article (readability)',
      { bytes: html, fileName: 'a', source: 'url' },
      1,
      'ms/file',
    ),
  );
} finally {
  await local.close();
}

// The production path adds a thread hop and structured cloning; measured on the small cases.
const pooled = createPooledExtractor({ threads: 1 });
try {
  rows.push(
    await measure(pooled, 'pooled: DOCX (200 paragraphs)', { bytes: docx, fileName: 'a.docx' }, 1, 'ms/file'),
  );
  rows.push(
    await measure(
      pooled,
      `pooled: text PDF (${textPages} pages)`,
      { bytes: textPdf, fileName: 'a.pdf' },
      textPages,
      'ms/page',
    ),
  );
} finally {
  await pooled.close();
}

// maxRSS covers the worker threads too (they share the process).
const peakRssMb = process.resourceUsage().maxRSS / 1024;
if (json) {
  console.log(JSON.stringify({ runs: RUNS, rows, peakRssMb: Math.round(peakRssMb) }, null, 2));
} else {
  console.log(`Extraction (offline), median of ${RUNS} runs after one cold run`);
  console.log(
    `${'case'.padEnd(40)} ${'median'.padStart(9)} ${'min'.padStart(9)}  unit       ${'cold ms'.padStart(8)}`,
  );
  for (const r of rows) {
    console.log(
      `${r.case.padEnd(40)} ${r.median.toFixed(1).padStart(9)} ${r.min.toFixed(1).padStart(9)}  ${r.unit.padEnd(10)} ${r.coldMs.toFixed(0).padStart(8)}`,
    );
  }
  console.log(`peak RSS: ${peakRssMb.toFixed(0)} MB`);
}
