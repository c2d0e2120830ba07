// The OpenAI-assisted extractor against the loopback stand-in for a hosted endpoint (the same one
// the other OpenAI providers are tested with): what it sends, when it does not call at all, and how
// a failing, hanging or cancelled call leaves the offline OCR result in place.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@kaboodle/platform';
import { createLocalBlobStore } from '@kaboodle/platform';
import { createMemoryEventBus } from '@kaboodle/platform';
import { createProcessingModule, processingModuleConfig } from '../module.ts';
import { createOpenAiClient } from '../providers/openai-client.ts';
import { startOpenAiStandIn, type OpenAiStandIn } from '../providers/test-support/openai-stand-in.ts';
import { ExtractionError } from './extractor.ts';
import { createLocalExtractor } from './local-extractor.ts';
import { createOpenAiAssistedExtractor } from './openai-assisted-extractor.ts';
import { makeDocx, makePdf, textImage } from './test-fixtures/generate-documents.ts';

let standIn: OpenAiStandIn;
const base = createLocalExtractor();
const client = (baseURL = standIn.baseURL, timeoutMs = 10_000) =>
  createOpenAiClient({ OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: 'sk-test', OPENAI_TIMEOUT: timeoutMs });
// close() of the assisted extractor closes its base: tests share one base and close it once.
const assisted = (over: Partial<Parameters<typeof createOpenAiAssistedExtractor>[0]> = {}) =>
  createOpenAiAssistedExtractor({ base, client: client(), model: 'vision-test', ...over });

const chatRequests = () => standIn.requests.filter((r) => r.path === '/v1/chat/completions');
type Part = { type: string; text?: string; image_url?: { url: string } };
const userParts = (body: Record<string, unknown>) =>
  (body.messages as Array<{ role: string; content: unknown }>).find((m) => m.role === 'user')!
    .content as Part[];
const sentImage = (body: Record<string, unknown>) => {
  const url = userParts(body).find((p) => p.type === 'image_url')!.image_url!.url;
  expect(url).toMatch(/^data:image\/jpeg;base64,/);
  return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
};

beforeAll(async () => {
  standIn = await startOpenAiStandIn();
});
afterAll(async () => {
  await standIn.close();
  await base.close();
});

describe('OpenAI-assisted extractor', () => {
  it("replaces offline OCR of an image with the model's transcription, sent as a JPEG of at most 2048 px", async () => {
    standIn.requests.length = 0;
    standIn.chatAnswer = () => 'INVOICE 4711\nTotal due: 128.50 EUR\nThank you for your order';
    // 3000 px wide: big enough that it must be scaled down before it is sent.
    const png = await textImage(['Invoice 4711', 'Total due 128.50 EUR'], { width: 3000, fontSize: 90 });
    const r = await assisted().extract({ bytes: png, fileName: 'invoice.png' });
    expect(r.kind).toBe('image');
    expect(r.text).toBe('INVOICE 4711\nTotal due: 128.50 EUR\nThank you for your order');
    expect(r.pages).toEqual([{ n: 1, text: r.text, ocr: true }]);
    expect(r.metadata.extra?.ocrEngine).toBe('openai:vision-test');
    expect(r.metadata.ocrConfidence).toBeUndefined();
    expect(r.warnings).toContain(
      'The text of the image was read by the vision model vision-test instead of offline OCR.',
    );
    const sent = chatRequests();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ model: 'vision-test', temperature: 0 });
    const meta = await sharp(sentImage(sent[0]!.body)).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width!, meta.height!)).toBe(2048);
  }, 60_000);

  it('keeps the offline OCR text with a warning when the endpoint answers 500', async () => {
    standIn.requests.length = 0;
    standIn.chatAnswer = () => 'never used';
    standIn.failNext(10, 500);
    const png = await textImage(['Invoice number 4711', 'Total due 128.50 EUR']);
    const offline = await base.extract({ bytes: png, fileName: 'invoice.png' });
    const r = await assisted().extract({ bytes: png, fileName: 'invoice.png' });
    standIn.failNext(0, 500);
    expect(r.text).toBe(offline.text);
    expect(r.text).toMatch(/Invoice number 4711/);
    expect(r.pages![0]!.ocr).toBe(true);
    expect(r.metadata.extra?.ocrEngine).toBeUndefined();
    expect(r.metadata.ocrConfidence).toBe(offline.metadata.ocrConfidence);
    expect(r.warnings).toContain(
      'The vision model vision-test could not read the image (the AI endpoint failed or timed out); the offline OCR text was kept.',
    );
    // One retry, then the offline text: a down endpoint does not hold the file up.
    expect(chatRequests()).toHaveLength(2);
  }, 60_000);

  it('falls back to offline OCR when the endpoint never answers (request time limit)', async () => {
    const hung: Server = createServer(() => undefined); // accepts and never answers
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = hung.address() as AddressInfo;
      const extractor = assisted({
        client: client(`http://127.0.0.1:${port}/v1`),
        requestTimeoutMs: 300,
        maxRetries: 0,
      });
      const png = await textImage(['Shelf label: teak stool']);
      const started = Date.now();
      const r = await extractor.extract({ bytes: png, fileName: 'label.png' });
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(r.text).toMatch(/teak stool/i);
      expect(r.warnings.join('\n')).toMatch(/could not read the image .*offline OCR text was kept/);
    } finally {
      hung.closeAllConnections();
      await new Promise<void>((resolve) => hung.close(() => resolve()));
    }
  }, 60_000);

  it('does not call the endpoint for a PDF with a text layer or a Word file', async () => {
    standIn.requests.length = 0;
    const pdf = await makePdf({ pages: [['A typed page with plenty of words on it'], ['And a second one']] });
    const offline = await base.extract({ bytes: pdf, fileName: 'typed.pdf' });
    const r = await assisted().extract({ bytes: pdf, fileName: 'typed.pdf' });
    expect(r).toEqual(offline);
    const docx = await makeDocx({ paragraphs: ['Some paragraph of a Word file.'] });
    await assisted().extract({ bytes: docx, fileName: 'notes.docx' });
    expect(standIn.requests).toHaveLength(0);
  }, 60_000);

  it('sends only the scanned page of a PDF, re-rendered, and keeps the text layer of the others', async () => {
    standIn.requests.length = 0;
    standIn.chatAnswer = () => 'Invoice number 4711\nTotal due 128.50 EUR\nPaid by bank transfer';
    const pdf = await makePdf({
      pages: [['A typed cover page with enough words on it']],
      scannedPages: [['Invoice number 4711', 'Total due 128.50 EUR']],
    });
    const r = await assisted().extract({ bytes: pdf, fileName: 'scan.pdf' });
    expect(r.pages).toEqual([
      { n: 1, text: 'A typed cover page with enough words on it', ocr: false },
      { n: 2, text: 'Invoice number 4711\nTotal due 128.50 EUR\nPaid by bank transfer', ocr: true },
    ]);
    expect(r.text).toBe(`${r.pages![0]!.text}\n\n${r.pages![1]!.text}`);
    expect(r.warnings).toContain(
      'The text of page 2 was read by the vision model vision-test instead of offline OCR.',
    );
    const sent = chatRequests();
    expect(sent).toHaveLength(1);
    expect(userParts(sent[0]!.body)[0]!.text).toMatch(/page 2/);
    const meta = await sharp(sentImage(sent[0]!.body)).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(2048);
    // The caller's bytes are intact (pdf.js got a copy).
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
  }, 60_000);

  it('keeps offline text on a page where the model sees none', async () => {
    standIn.chatAnswer = () => 'NO_TEXT';
    const png = await textImage(['Made in Poland', 'Oak stool 45 cm']);
    const r = await assisted().extract({ bytes: png, fileName: 'stool.png' });
    expect(r.text).toMatch(/Made in Poland/);
    expect(r.warnings).toContain(
      'The vision model vision-test saw no text on the image; the offline OCR text was kept.',
    );
  }, 60_000);

  it('stops with "aborted" when the caller cancels during the model call', async () => {
    const controller = new AbortController();
    standIn.chatAnswer = () => {
      controller.abort(); // the request reached the endpoint: cancel while it is in flight
      return 'too late';
    };
    const png = await textImage(['Cancel me']);
    const err = await assisted()
      .extract({ bytes: png, fileName: 'cancel.png' }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionError);
    expect(err).toMatchObject({ code: 'aborted', message: 'Processing was cancelled.' });
  }, 60_000);

  it('reads a file given by path like one given as bytes', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kaboodle-assisted-'));
    try {
      standIn.chatAnswer = () => 'Label: 30 x 40 cm';
      const file = path.join(dir, 'label.jpg');
      await writeFile(file, await textImage(['Label 30 x 40 cm'], { format: 'jpeg' }));
      const r = await assisted().extract({ bytes: file, fileName: 'label.jpg' });
      expect(r.text).toBe('Label: 30 x 40 cm');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('processing module wiring', () => {
  it('reads images with the vision model when an endpoint is configured, offline otherwise (one env change)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kaboodle-wiring-'));
    const blobs = createLocalBlobStore({ root: dir });
    const logger = createLogger({ component: 'assisted-extractor-test', level: 'silent' });
    const build = (env: Record<string, string>) =>
      createProcessingModule({
        bus: createMemoryEventBus(),
        blobs,
        logger,
        config: processingModuleConfig.parse(env),
        consume: false,
      });
    const remote = build({ OPENAI_BASE_URL: standIn.baseURL, OPENAI_VISION_MODEL: 'wired-vision' });
    const offline = build({});
    try {
      standIn.requests.length = 0;
      standIn.chatAnswer = () => 'Glazed bowl, 25 cm';
      const png = await textImage(['Glazed bowl 25 cm']);
      const viaEndpoint = await remote.extractor.extract({ bytes: png, fileName: 'bowl.png' });
      expect(viaEndpoint.text).toBe('Glazed bowl, 25 cm');
      expect(chatRequests().map((r) => r.body.model)).toEqual(['wired-vision']);
      standIn.requests.length = 0;
      const local = await offline.extractor.extract({ bytes: png, fileName: 'bowl.png' });
      expect(local.text).toMatch(/Glazed bowl 25 cm/);
      expect(standIn.requests).toHaveLength(0);
    } finally {
      await Promise.all([remote.stop?.(), offline.stop?.()]);
      await blobs.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
