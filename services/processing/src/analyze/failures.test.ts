// Every way the analyser can fail, run for real (in-thread extractor, offline enricher, USE-lite,
// offline vision, a local blob store) and sorted by classifyFailure: the user's failures carry a
// reason they can act on and are never retried; the system's are retried.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError, UnavailableError, type BlobStore } from '@kaboodle/platform';
import { createLocalBlobStore } from '@kaboodle/platform';
import { createUseLiteEmbedder } from '../embed/index.ts';
import { createOfflineEnricher } from '../enrich/index.ts';
import { ExtractionError, REASONS } from '../extract/extractor.ts';
import type { ExtractionErrorCode } from '../extract/extractor.ts';
import { createLocalExtractor } from '../extract/local-extractor.ts';
import { createBarcodeLookup, createOfflineVision, createPooledImageMeasurer } from '../vision/index.ts';
import { createAnalyzer } from './analyzer.service.ts';
import type { AnalyzeInput } from './analyzer.service.ts';
import { classifyFailure, EXTRACTION_FAILURE_OWNER, FILE_GONE_REASON } from './failures.ts';

let dir: string;
let blobs: BlobStore;
const extractor = createLocalExtractor();
const measurer = createPooledImageMeasurer({ timeoutMs: 90_000 });
const embedder = createUseLiteEmbedder();
const analyzer = () =>
  createAnalyzer({
    extractor,
    blobs,
    embedder,
    enricher: createOfflineEnricher(),
    vision: createOfflineVision({ measurer, barcodeLookup: createBarcodeLookup() }),
  });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'kaboodle-failures-'));
  blobs = createLocalBlobStore({ root: dir });
});
afterAll(async () => {
  await extractor.close();
  await measurer.close();
  await embedder.close?.();
  await blobs.close();
  await rm(dir, { recursive: true, force: true });
});

const failureOf = (input: AnalyzeInput) =>
  analyzer()
    .analyze(input)
    .then(
      () => {
        throw new Error(`expected ${input.fileName} to fail`);
      },
      (err: unknown) => err,
    );

/** A plain photo of a red bowl-coloured disc on a beige wall: nothing to read. */
async function textlessPhoto(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360">
    <rect width="480" height="360" fill="#d8c8a8"/><ellipse cx="240" cy="200" rx="150" ry="90" fill="#b3261e"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

describe('the user’s failures: not retried, a reason they can act on', () => {
  const userCases: Array<{ what: string; input: () => Promise<AnalyzeInput>; reason: RegExp }> = [
    {
      what: 'a photo with no text sent as a document',
      input: async () => ({ bytes: await textlessPhoto(), fileName: 'bowl.jpg', destination: 'document' }),
      reason: /^No text was found in this photo.*Inventory item or Auto\.$/,
    },
    {
      what: 'a text file sent to the inventory',
      input: async () => ({ bytes: Buffer.from('plain words'), fileName: 'a.txt', destination: 'inventory' }),
      reason: /^Only photos \(JPEG or PNG\) can become inventory items/,
    },
    {
      what: 'an empty file',
      input: async () => ({ bytes: new Uint8Array(0), fileName: 'a.txt' }),
      reason: /^The file is empty\.$/,
    },
    {
      what: 'a text file of whitespace only',
      input: async () => ({ bytes: Buffer.from(' \n\t\n  '), fileName: 'blank.txt' }),
      reason: /^No text could be found in this file\.$/,
    },
    {
      what: 'a file over 20 MB',
      input: async () => ({ bytes: new Uint8Array(21 * 1024 * 1024), fileName: 'big.pdf' }),
      reason: /^The file is 21\.00 MB; the limit is 20\.00 MB\.$/,
    },
    {
      what: 'a PNG named .pdf',
      input: async () => ({ bytes: await textlessPhoto(), fileName: 'scan.pdf', destination: 'document' }),
      reason: /./,
    },
    {
      what: 'a PDF that is garbage after its header',
      input: async () => ({
        bytes: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4000, 0x5a)]),
        fileName: 'broken.pdf',
      }),
      reason: /PDF/,
    },
    {
      what: 'a DOCX that is not a zip',
      input: async () => ({
        bytes: Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 1)]),
        fileName: 'broken.docx',
      }),
      reason: /./,
    },
    {
      what: 'a truncated JPEG',
      input: async () => ({ bytes: (await textlessPhoto()).subarray(0, 300), fileName: 'cut.jpg' }),
      reason: /damaged|incomplete|could not/i,
    },
    {
      what: 'a stored file that is gone',
      input: async () => ({ blobKey: 'files/u/missing', fileName: 'gone.pdf' }),
      reason: new RegExp(`^${FILE_GONE_REASON.replace(/\./g, '\\.')}$`),
    },
    {
      what: 'a request without a file name',
      input: async () => ({ bytes: Buffer.from('hello'), fileName: ' ' }),
      reason: /^File name is required$/,
    },
  ];

  it.each(userCases)(
    '$what',
    async ({ input, reason }) => {
      const err = await failureOf(await input());
      const failure = classifyFailure(err);
      expect(failure, String(err)).toMatchObject({ owner: 'user' });
      if (failure.owner === 'user') expect(failure.reason).toMatch(reason);
    },
    120_000,
  );
});

describe('the system’s failures: retried with backoff', () => {
  it('a blob store that is closed (an engine gone) is ours', async () => {
    const closed = createLocalBlobStore({ root: path.join(dir, 'closed') });
    await closed.put('k', Readable.from([Buffer.from('hello')]), { contentType: 'text/plain' });
    await closed.close();
    const err = await createAnalyzer({
      extractor,
      blobs: closed,
      embedder,
      enricher: createOfflineEnricher(),
      vision: createOfflineVision({ measurer, barcodeLookup: createBarcodeLookup() }),
    })
      .analyze({ blobKey: 'k', fileName: 'a.txt' })
      .catch((e: unknown) => e);
    expect(classifyFailure(err)).toMatchObject({ owner: 'system' });
  });

  it('an engine that is busy, an unexpected fault and a 5xx domain error are ours', () => {
    expect(classifyFailure(new UnavailableError('busy'))).toMatchObject({ owner: 'system' });
    expect(classifyFailure(new TypeError('x is undefined'))).toMatchObject({ owner: 'system' });
    expect(classifyFailure('a thrown string')).toMatchObject({ owner: 'system' });
  });
});

describe('every extraction outcome is decided', () => {
  it.each(Object.entries(EXTRACTION_FAILURE_OWNER))('%s → %s', (code, owner) => {
    const failure = classifyFailure(new ExtractionError(code as ExtractionErrorCode, 'why'));
    expect(failure.owner).toBe(owner);
  });

  it('a refusal of the input is the user’s; a cancel is nobody’s failure', () => {
    expect(classifyFailure(new InputError('Bad destination'))).toEqual({
      owner: 'user',
      reason: 'Bad destination',
    });
    const abort = new Error('stopped');
    abort.name = 'AbortError';
    expect(classifyFailure(abort)).toEqual({ owner: 'cancelled' });
    expect(REASONS.noTextInPhoto).toMatch(/Inventory item/);
  });
});
