// The search module end to end in one process, for its tests (module*.test.ts): catalogue.changed
// events on the in-process bus feed the index (an exact in-memory one), and the routes answer over
// real HTTP. The embedder is a word-hashing stand-in for the processing service's model; the
// catalogue a stand-in that streams entities. Tokens name fixed users (ALICE, BOB, CAROL, ADMIN).
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { pino } from 'pino';
import {
  AuthenticationError,
  createHttpServer,
  createMemoryEventBus,
  UnavailableError,
} from '@kaboodle/platform';
import type { AuthenticatedUser, EventBus } from '@kaboodle/platform';
import { ListForIndexResponseSchema, create } from '@kaboodle/proto';
import type { Document, InventoryItem, ListForIndexResponse } from '@kaboodle/proto';
import { createSearchModule } from '../module.ts';
import type { SearchModule } from '../module.ts';
import { searchConfig } from '../search-config.ts';
import { catalogueChanged, hashEmbed, TEST_DIMENSIONS } from './fixtures.ts';
import { createMemorySearchIndex } from './memory-search-index.ts';
import type { MemorySearchIndex } from './memory-search-index.ts';

const logger = pino({ level: 'silent' });
const users: Record<string, AuthenticatedUser> = {};
/** A signed-in user's token (an admin's with role 'admin'). */
export const user = (id: string, role: 'user' | 'admin' = 'user') => {
  users[`token-${id}`] = {
    id,
    email: `${id}@example.com`,
    role,
    sessionId: 's',
    expiresAt: new Date(Date.now() + 3_600_000),
  };
  return `token-${id}`;
};
export const ALICE = user('alice');
export const BOB = user('bob');
export const CAROL = user('carol');
export const ADMIN = user('root', 'admin');

export interface Hit {
  type: string;
  id: string;
  title: string;
  name: string;
  score: number;
  url: string;
  image_url: string;
  excerpt?: string;
}

export async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface SearchHarness {
  /** The server's address, e.g. for a raw photo body. */
  base: string;
  bus: EventBus;
  index: MemorySearchIndex;
  search: SearchModule;
  /** How often the stand-in embedder was called, and whether it fails (processing down). */
  embedCalls: number;
  embedFails: boolean;
  /** Texts the stand-in embedder was asked for, in order. */
  embedded: string[];
  /** While set, the stand-in embedder waits for it (a slow model, to fill the search slots). */
  embedGate: Promise<void> | undefined;
  /** What the stand-in catalogue streams on a rebuild, and how often it was read. */
  catalogueEntities: Array<Document | InventoryItem>;
  readonly catalogueReads: number;
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    token: string | undefined,
    body?: unknown,
    raw?: string,
    signal?: AbortSignal,
  ): Promise<{ status: number; body: T; headers: Headers }>;
  /** A keyword search (POST /api/search) unless `extra` says otherwise. */
  find(
    token: string,
    query: string,
    extra?: Record<string, unknown>,
  ): Promise<{ status: number; body: { results: Hit[] }; headers: Headers }>;
  publish(...events: Parameters<typeof catalogueChanged>[0][]): Promise<void>;
  stop(): Promise<void>;
}

export interface SearchHarnessOptions {
  /** The text index (one kept across a restart); default a new in-memory one. */
  index?: MemorySearchIndex;
  /** KABOODLE_DATA_DIR: where the real (LanceDB) photo index lives; needs `imageModel`. */
  dataDir?: string;
  /** Offer an image model (find by photo): the module then opens the photo index of `dataDir`. */
  imageModel?: string;
  catalogueEntities?: Array<Document | InventoryItem>;
  /** The stand-in catalogue refuses this many reads first (still starting: 503), then answers. */
  catalogueUnavailableReads?: number;
  /** Settings over the defaults (e.g. SEARCH_MAX_CONCURRENT). */
  env?: Record<string, string>;
}

export async function startSearchHarness(options: SearchHarnessOptions = {}): Promise<SearchHarness> {
  const bus = createMemoryEventBus({ logger });
  const index = options.index ?? createMemorySearchIndex({ dimensions: TEST_DIMENSIONS });
  const catalogueEntities: Array<Document | InventoryItem> = options.catalogueEntities ?? [];
  const imageModel = options.imageModel;
  let reads = 0; // counted before `h` exists: the start-up fill reads during start()
  async function* listForIndex(): AsyncIterable<ListForIndexResponse> {
    reads++;
    if (reads <= (options.catalogueUnavailableReads ?? 0))
      throw new UnavailableError('the catalogue is still starting');
    for (const e of catalogueEntities) {
      yield create(ListForIndexResponseSchema, {
        entity:
          e.$typeName === 'kaboodle.catalogue.v1.Document'
            ? { case: 'document', value: e as Document }
            : { case: 'inventoryItem', value: e as InventoryItem },
      });
    }
  }
  const search = createSearchModule({
    bus,
    logger,
    verifier: {
      verify: async (token) => {
        const u = users[token];
        if (!u) throw new AuthenticationError('Session expired');
        return u;
      },
    },
    config: {
      ...searchConfig.parse(options.env ?? {}),
      KABOODLE_DATA_DIR: options.dataDir ?? '/nonexistent',
    },
    processing: {
      kind: 'in-process',
      module: () => ({
        name: 'processing',
        embedder: {
          dimensions: TEST_DIMENSIONS,
          model: 'hash',
          embed: async (texts: string[]) => {
            h.embedCalls++;
            h.embedded.push(...texts);
            await h.embedGate;
            if (h.embedFails) throw new Error('the processing service is down');
            return texts.map((t) => hashEmbed(t));
          },
        },
        ...(imageModel && {
          imageEmbedder: {
            dimensions: TEST_DIMENSIONS,
            model: imageModel,
            embed: async (bytes: Uint8Array) => hashEmbed(Buffer.from(bytes).toString('hex')),
          },
        }),
      }),
    },
    catalogue: { kind: 'in-process', module: () => ({ name: 'catalogue', listForIndex }) },
    openIndex: () => index,
  });
  const http = createHttpServer({ logger, checks: search.checks ?? [], responseCheck: 'strict' });
  http.mount(search.router!);
  await search.start!();
  const server: Server = http.app.listen(0);
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const h: SearchHarness = {
    base,
    bus,
    index,
    search,
    embedCalls: 0,
    embedFails: false,
    embedded: [],
    embedGate: undefined,
    catalogueEntities,
    get catalogueReads() {
      return reads;
    },
    async call<T = Record<string, unknown>>(
      method: string,
      path: string,
      token: string | undefined,
      body?: unknown,
      raw?: string,
      signal?: AbortSignal,
    ) {
      const res = await fetch(base + path, {
        method,
        ...(signal && { signal }),
        headers: {
          'x-requested-with': 'XMLHttpRequest',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(raw !== undefined ? { body: raw } : body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (await res.json()) as T, headers: res.headers };
    },
    find: (token, query, extra = {}) =>
      h.call<{ results: Hit[] }>('POST', '/api/search', token, { query, search_type: 'keyword', ...extra }),
    async publish(...events) {
      await bus.publish(events.map((e) => catalogueChanged(e)));
    },
    async stop() {
      await new Promise((r) => server.close(r));
      await search.stop?.();
      await bus.close();
    },
  };
  return h;
}
