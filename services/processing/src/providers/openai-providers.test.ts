// The OpenAI-compatible providers against a loopback stand-in for a hosted endpoint: what they send
// (models, encoding_format, JSON output, the image, the user's instructions verbatim) and how they
// validate and merge what comes back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProvenanceSource } from '@kaboodle/proto';
import { createOpenAiEmbedder } from '../embed/index.ts';
import { createOfflineEnricher, createOpenAiEnricher } from '../enrich/index.ts';
import { createOpenAiVision, type InventoryVision } from '../vision/index.ts';
import { createAiProviders } from './create-ai-providers.ts';
import { createOpenAiClient, parseJsonObject } from './openai-client.ts';
import { processingConfigSchema, resolveAiProvider } from './processing-config.ts';
import { startOpenAiStandIn, type OpenAiStandIn } from './test-support/openai-stand-in.ts';

let standIn: OpenAiStandIn;
const client = () =>
  createOpenAiClient({ OPENAI_BASE_URL: standIn.baseURL, OPENAI_API_KEY: 'sk-test', OPENAI_TIMEOUT: 5000 });

beforeAll(async () => {
  standIn = await startOpenAiStandIn({ dimensions: 48 });
});
afterAll(async () => {
  await standIn.close();
});

describe('processing config', () => {
  it('defaults to offline, and one OPENAI_BASE_URL switches every capability to the endpoint', () => {
    expect(resolveAiProvider(processingConfigSchema.parse({}))).toBe('offline');
    const c = processingConfigSchema.parse({ OPENAI_BASE_URL: 'http://ollama:11434/v1' });
    expect(resolveAiProvider(c)).toBe('openai');
    expect(c.OPENAI_EMBEDDING_MODEL).toBe('text-embedding-3-small');
    expect(
      resolveAiProvider(
        processingConfigSchema.parse({ OPENAI_BASE_URL: 'http://x/v1', PROCESSING_AI_PROVIDER: 'offline' }),
      ),
    ).toBe('offline');
  });

  it('lists every problem and never echoes the key', () => {
    const r = processingConfigSchema.safeParse({
      PROCESSING_AI_PROVIDER: 'gpt',
      OPENAI_BASE_URL: 'ftp://x',
      OPENAI_API_KEY: 'sk-secret',
    });
    expect(r.ok).toBe(false);
    const text = r.ok ? '' : r.problems.join('\n');
    expect(text).toMatch(/PROCESSING_AI_PROVIDER: must be one of offline, openai/);
    expect(text).toMatch(/OPENAI_BASE_URL/);
    expect(text).not.toContain('sk-secret');
    const noKey = processingConfigSchema.safeParse({ PROCESSING_AI_PROVIDER: 'openai' });
    expect(noKey.ok ? [] : noKey.problems).toEqual([expect.stringMatching(/^OPENAI_API_KEY: is required/)]);
  });
});

describe('OpenAI-compatible embedder', () => {
  it('asks for float vectors in batches and returns unit vectors tagged with the model', async () => {
    standIn.requests.length = 0;
    const embedder = createOpenAiEmbedder({ client: client(), model: 'nomic-embed-text', maxBatch: 2 });
    expect(embedder.dimensions).toBe(768);
    const custom = createOpenAiEmbedder({ client: client(), model: 'my-embedder' });
    const vectors = await custom.embed(['red bowl', 'blue tote', 'teak stool']);
    expect(vectors).toHaveLength(3);
    expect(Math.hypot(...vectors[0]!)).toBeCloseTo(1, 5);
    expect([custom.provider, custom.model, custom.dimensions]).toEqual(['openai', 'my-embedder', 48]);
    const sent = standIn.requests.filter((r) => r.path === '/v1/embeddings');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({
      model: 'my-embedder',
      encoding_format: 'float',
      input: ['red bowl', 'blue tote', 'teak stool'],
    });
    expect(sent[0]!.headers.authorization).toBe('Bearer sk-test');
  });

  it('refuses vectors whose size changed (a model swapped behind the endpoint)', async () => {
    const embedder = createOpenAiEmbedder({ client: client(), model: 'text-embedding-3-small' });
    await expect(embedder.embed(['x'])).rejects.toThrow(/48-dimensional vectors .* expected 1536/);
  });

  it('retries a failed request (the SDK’s retries) and succeeds', async () => {
    standIn.failNext(1, 503);
    const embedder = createOpenAiEmbedder({ client: client(), model: 'm' });
    await expect(embedder.embed(['retry me'])).resolves.toHaveLength(1);
  });
});

describe('OpenAI-compatible enricher', () => {
  it('sends the instructions verbatim with JSON output and validates the answer', async () => {
    standIn.requests.length = 0;
    standIn.chatAnswer = () =>
      JSON.stringify({
        title: 'Clause Review with Transformers',
        author: 'Jane Smith, Robert Jones',
        publication_year: '2019',
        journal_publisher: '',
        category: 'Research Paper',
        field: 'Law',
        summary: 'Transformers speed up contract review.',
        thesis: 'Transformers reduce review time.',
        issue: 'Review is slow.',
        influenced_by: ['Vaswani'],
        hashtags: [{ tag: 'Legal Tech', relevancy: 1.7 }, { tag: 'contracts', relevancy: 0.6 }, 'nlp'],
        confidence: { title: 0.95 },
      });
    const enricher = createOpenAiEnricher({
      client: client(),
      model: 'gpt-test',
      baseline: createOfflineEnricher(),
    });
    const instructions = 'Focus on the legal angle.\ntags: legal-tech';
    const text =
      'Clause Review\nJournal of Legal Informatics, Vol. 12 (2019)\n\nWe argue that transformers reduce contract review time for attorneys.';
    const r = await enricher.enrich({ text, instructions, existingTags: [{ tag: 'contract', count: 3 }] });
    const sent = standIn.requests.find((q) => q.path === '/v1/chat/completions')!.body;
    expect(sent).toMatchObject({ model: 'gpt-test', response_format: { type: 'json_object' } });
    const userMessage = (sent.messages as Array<{ role: string; content: string }>).find(
      (m) => m.role === 'user',
    )!.content;
    expect(userMessage).toContain(instructions);
    expect(userMessage).toContain('contract');
    expect(r.title).toBe('Clause Review with Transformers');
    expect(r.provenance.title).toMatchObject({
      source: ProvenanceSource.REMOTE_MODEL,
      method: 'gpt-test',
      confidence: 0.95,
    });
    expect(r.publicationYear).toBe(2019);
    expect(r.hashtags).toEqual([
      { tag: 'legal-tech', relevancy: 1 },
      { tag: 'contract', relevancy: 0.85 },
      { tag: 'nlp', relevancy: 0.7 },
    ]);
    // The model left the journal empty; the journal line found offline is kept, with its own provenance.
    expect(r.journalPublisher).toBe('Journal of Legal Informatics');
    expect(r.provenance.journal_publisher!.source).toBe(ProvenanceSource.TEXT_ANALYSIS);
  });

  it('fails clearly when the model does not answer JSON', async () => {
    standIn.chatAnswer = () => 'Sure! Here is the summary you asked for.';
    const enricher = createOpenAiEnricher({ client: client(), model: 'gpt-test' });
    await expect(enricher.enrich({ text: 'Some text to enrich.' })).rejects.toThrow(
      /did not answer with a JSON object/,
    );
  });

  it('falls back to the offline rules when the model fails or answers no JSON', async () => {
    const offline = createOfflineEnricher();
    const text =
      'Clause Review\nJournal of Legal Informatics, Vol. 12 (2019)\n\nWe argue that transformers reduce contract review time for attorneys.';
    const expected = await offline.enrich({ text });
    const enricher = createOpenAiEnricher({ client: client(), model: 'gpt-test', baseline: offline });
    standIn.chatAnswer = () => 'Sure! Here is the summary you asked for.';
    expect(await enricher.enrich({ text })).toEqual(expected);
    standIn.chatAnswer = () => '{}';
    standIn.failNext(10, 500);
    const failed = await enricher.enrich({ text });
    expect(failed).toEqual(expected);
    expect(failed.provenance.title!.source).toBe(ProvenanceSource.TEXT_ANALYSIS);
    standIn.failNext(0, 500);
  });

  it('reads JSON wrapped in a code fence', () => {
    expect(parseJsonObject('```json\n{"a": 1}\n```')).toEqual({ a: 1 });
  });
});

describe('OpenAI-compatible vision', () => {
  it('sends the photo as a data URL and keeps locally measured barcodes and colours', async () => {
    standIn.requests.length = 0;
    standIn.chatAnswer = () =>
      JSON.stringify({
        name: 'Indigo canvas tote',
        description: 'A sturdy tote.',
        category: 'totebags',
        material: 'cotton canvas',
        colors: [{ name: 'blue', hex: '#0000ff' }],
        dimensions: '38 x 42 cm',
        hashtags: ['tote'],
      });
    const baseline: InventoryVision = {
      provider: 'local',
      analyze: async () => ({
        name: 'Blue tote bag',
        description: 'measured',
        category: 'Totebags',
        material: '',
        colors: [{ name: 'blue', hex: '#2e75a4', share: 0.9 }],
        objects: [{ label: 'handbag', score: 0.7 }],
        barcodes: [{ format: 'EAN-13', value: '5901234123457' }],
        originSource: 'PL',
        hashtags: [],
        provenance: {},
      }),
    };
    const vision = createOpenAiVision({ client: client(), model: 'vision-test', baseline });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const r = await vision.analyze({ bytes: png, fileName: 'tote.png', instructions: 'It is hand-dyed.' });
    const sent = standIn.requests.find((q) => q.path === '/v1/chat/completions')!.body;
    const content = (sent.messages as Array<{ role: string; content: unknown }>).find(
      (m) => m.role === 'user',
    )!.content as Array<Record<string, unknown>>;
    expect(content.find((c) => c.type === 'image_url')).toMatchObject({
      image_url: { url: expect.stringMatching(/^data:image\/png;base64,/) },
    });
    expect(JSON.stringify(content)).toContain('It is hand-dyed.');
    expect(r).toMatchObject({
      name: 'Indigo canvas tote',
      category: 'Totebags',
      material: 'cotton canvas',
      originSource: 'PL',
    });
    expect(r.colors[0]!.hex).toBe('#2e75a4');
    expect(r.barcodes[0]!.value).toBe('5901234123457');
    expect(r.dimensions).toMatchObject({ width: 38, height: 42, lengthUnit: 'cm' });
  });
});

describe('provider wiring', () => {
  it('builds the remote adapters from config alone, offline ones by default', async () => {
    const offline = createAiProviders(processingConfigSchema.parse({}));
    expect([
      offline.provider,
      offline.embedder.provider,
      offline.enricher.provider,
      offline.vision.provider,
    ]).toEqual(['offline', 'local', 'local', 'local']);
    await offline.close();
    const remote = createAiProviders(
      processingConfigSchema.parse({ OPENAI_BASE_URL: standIn.baseURL, OPENAI_EMBEDDING_MODEL: 'e5' }),
    );
    expect([
      remote.provider,
      remote.embedder.provider,
      remote.embedder.model,
      remote.enricher.provider,
      remote.vision.provider,
    ]).toEqual(['openai', 'openai', 'e5', 'openai', 'openai']);
    await remote.close();
  });
});
