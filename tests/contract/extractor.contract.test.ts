// Extractor port contract: the same cases against every adapter — in-thread (createLocalExtractor),
// worker-thread pool (createPooledExtractor, the production one) and the OpenAI-assisted one (OCR pages
// read by a vision model; here a loopback stand-in for a hosted endpoint answers with the fixture's
// text). Fixtures are generated offline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiAssistedExtractor } from '@kaboodle/processing';
import { createOpenAiClient } from '@kaboodle/processing';
import {
  startOpenAiStandIn,
  type OpenAiStandIn,
} from '../../services/processing/src/providers/test-support/openai-stand-in.ts';
import {
  ExtractionError,
  createLocalExtractor,
  createPooledExtractor,
  type ExtractInput,
  type ExtractOptions,
  type Extractor,
} from '@kaboodle/processing';
import {
  encodeText,
  makeDocx,
  makePdf,
  textImage,
} from '../../services/processing/src/extract/test-fixtures/generate-documents.ts';
import {
  encryptedDocxEnvelope,
  wordDoc,
  zipBombDocx,
} from '../../services/processing/src/extract/test-fixtures/generate-containers.ts';

let standIn: OpenAiStandIn;
beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  standIn.chatAnswer = () => 'Crimson glass beads';
});
afterAll(() => standIn.close());

const adapters: { name: string; create(): Extractor }[] = [
  { name: 'local (in-thread)', create: () => createLocalExtractor() },
  { name: 'pooled (worker threads)', create: () => createPooledExtractor({ threads: 1 }) },
  {
    name: 'OpenAI-assisted (stand-in endpoint)',
    create: () =>
      createOpenAiAssistedExtractor({
        base: createLocalExtractor(),
        // Resolved per call: the stand-in starts in beforeAll, after the adapters are listed.
        get client() {
          return createOpenAiClient({
            OPENAI_BASE_URL: standIn.baseURL,
            OPENAI_API_KEY: 'sk-test',
            OPENAI_TIMEOUT: 10_000,
          });
        },
        model: 'vision-contract',
      }),
  },
];

const fixtures = {
  pdf: await makePdf({
    title: 'Contract',
    author: 'Port Suite',
    pages: [['The first page of the contract suite.']],
  }),
  docx: await makeDocx({ title: 'Contract', creator: 'Port Suite', paragraphs: ['A paragraph in a DOCX.'] }),
  doc: wordDoc({ paragraphs: ['A paragraph in a DOC.'], title: 'Contract' }),
  png: await textImage(['Crimson glass beads']),
  html: Buffer.from(
    `<!doctype html><html lang="en"><head><title>T</title><meta property="og:title" content="Contract page"><meta name="author" content="Port Suite"></head><body><article><p>${'Readable article text for the contract suite. '.repeat(12)}</p></article></body></html>`,
  ),
};

async function failure(
  extractor: Extractor,
  input: ExtractInput,
  opts?: ExtractOptions,
): Promise<ExtractionError> {
  const outcome: unknown = await extractor.extract(input, opts).catch((e: unknown) => e);
  expect(outcome).toBeInstanceOf(ExtractionError);
  return outcome as ExtractionError;
}

describe.each(adapters)('Extractor contract: $name', ({ create }) => {
  const extractor = create();
  afterAll(() => extractor.close());

  it('reads a text PDF with its metadata', async () => {
    const r = await extractor.extract({ bytes: fixtures.pdf, fileName: 'c.pdf' });
    expect(r).toMatchObject({
      kind: 'pdf',
      metadata: { title: 'Contract', author: 'Port Suite', pageCount: 1 },
    });
    expect(r.pages).toEqual([{ n: 1, text: 'The first page of the contract suite.', ocr: false }]);
  });

  it('reads DOCX and DOC with their titles', async () => {
    const docx = await extractor.extract({ bytes: fixtures.docx, fileName: 'c.docx' });
    const doc = await extractor.extract({ bytes: fixtures.doc, fileName: 'c.doc' });
    expect(docx).toMatchObject({
      kind: 'docx',
      text: 'A paragraph in a DOCX.',
      metadata: { title: 'Contract' },
    });
    expect(doc).toMatchObject({
      kind: 'doc',
      text: 'A paragraph in a DOC.',
      metadata: { title: 'Contract' },
    });
  });

  it('decodes UTF-16 text', async () => {
    const r = await extractor.extract({
      bytes: encodeText('Grüße, 10 €', 'utf-16le-bom'),
      fileName: 'c.txt',
    });
    expect(r).toMatchObject({ kind: 'txt', text: 'Grüße, 10 €', metadata: { encoding: 'utf-16le' } });
  });

  it('reads a fetched page with readability', async () => {
    const r = await extractor.extract({ bytes: fixtures.html, fileName: 'page', source: 'url' });
    expect(r).toMatchObject({
      kind: 'html',
      metadata: { title: 'Contract page', author: 'Port Suite' },
      language: 'en',
    });
    expect(r.text).toMatch(/^Readable article text/);
  });

  it('OCRs an image', async () => {
    const r = await extractor.extract({ bytes: fixtures.png, fileName: 'c.png' });
    expect(r).toMatchObject({ kind: 'image', text: 'Crimson glass beads' });
  }, 30_000);

  it('gives readable reasons for bad input', async () => {
    expect(await failure(extractor, { bytes: fixtures.png, fileName: 'c.pdf' })).toMatchObject({
      code: 'type_mismatch',
      message: "The file's content is PNG, but its name says .pdf",
    });
    expect((await failure(extractor, { bytes: new Uint8Array(0), fileName: 'c.txt' })).code).toBe('empty');
    expect((await failure(extractor, { bytes: encryptedDocxEnvelope(), fileName: 'c.docx' })).code).toBe(
      'password_protected',
    );
    expect(
      (await failure(extractor, { bytes: zipBombDocx(32 * 1024 * 1024), fileName: 'c.docx' })).code,
    ).toBe('too_large');
  });

  it('honours cancellation and the time limit', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(
      (await failure(extractor, { bytes: fixtures.pdf, fileName: 'c.pdf' }, { signal: controller.signal }))
        .code,
    ).toBe('aborted');
    const big = await textImage(['A slow image to read'], { width: 3000, fontSize: 80 });
    expect(
      (await failure(extractor, { bytes: big, fileName: 'c.png' }, { limits: { timeoutMs: 20 } })).code,
    ).toBe('timeout');
  }, 30_000);
});
