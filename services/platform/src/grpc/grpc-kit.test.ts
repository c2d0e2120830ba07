// A real grpc-js server and client on a loopback port: calls, deadlines, retries, error mapping
// both ways, grpc.health.v1 following module checks, and graceful/forced shutdown.
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, credentials, Metadata, Server, ServerCredentials, status as Status } from '@grpc/grpc-js';
import type { sendUnaryData, ServerUnaryCall, ServiceError } from '@grpc/grpc-js';
import { CatalogueService, Health, ProcessingService, SearchService } from '@kaboodle/proto';
import type { AnalyzeRequest } from '@kaboodle/proto';
import {
  AuthenticationError,
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
  RateLimitError,
  TooLargeError,
  UnavailableError,
} from '../errors.ts';
import { createLogger } from '../log/index.ts';
import type { HealthCheck } from '../module.ts';
import {
  checkGrpcHealth,
  createGrpcClient,
  createGrpcServer,
  GrpcStatusError,
  implementGrpcService,
  ServingStatus,
  toGrpcServiceDefinition,
} from './index.ts';
import type { GrpcServer } from './index.ts';

const lines: Array<Record<string, unknown>> = [];
const logger = createLogger({
  component: 'grpc-test',
  level: 'debug',
  destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
});

let databaseUp = true;
const databaseCheck: HealthCheck = {
  name: 'database',
  check: async () => {
    if (!databaseUp) throw new Error('database is not answering');
  },
};

// What the test processing service should do next.
const behaviour = {
  throwOnEmbed: undefined as unknown,
  unavailableLeft: 0,
  analyzeCalls: 0,
  slowAborted: false,
  streamCancelled: false,
};

const processing = implementGrpcService(ProcessingService, {
  async embed(request) {
    if (behaviour.throwOnEmbed !== undefined) throw behaviour.throwOnEmbed;
    return {
      vectors: request.texts.map((t) => ({ values: [t.length, 0.5] })),
      provider: 'test',
      model: 'length',
      dimensions: 2,
    };
  },
  async analyze(request: AnalyzeRequest, ctx) {
    behaviour.analyzeCalls++;
    if (behaviour.unavailableLeft > 0) {
      behaviour.unavailableLeft--;
      throw new UnavailableError('model still loading');
    }
    if (request.options?.instructions === 'slow') {
      await sleep(1500, undefined, { signal: ctx.signal }).catch(() => {
        behaviour.slowAborted = true;
      });
    }
    return { result: { case: 'document', value: { title: `analysed ${request.file?.fileName}` } } };
  },
});

const catalogue = implementGrpcService(CatalogueService, {
  async *listForIndex(request, ctx) {
    for (let i = 0; i < 1000; i++) {
      if (ctx.signal.aborted) {
        behaviour.streamCancelled = true;
        return;
      }
      yield { entity: { case: 'document', value: { id: `doc-${i}`, ownerId: request.ownerId } } };
      if (i >= 2 && request.ownerId !== 'many') return;
      await sleep(5);
    }
  },
  async getDocument(request) {
    throw new NotFoundError(`Document ${request.id} not found`);
  },
  async getInventoryItem() {
    throw new Error('SELECT * FROM items failed: password=hunter2');
  },
});

// A raw grpc-js implementation (callback style), as a module might register without the typed helper.
const rawSearch = {
  name: SearchService.typeName,
  definition: toGrpcServiceDefinition(SearchService),
  implementation: {
    Search: (_call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) =>
      callback({ code: Status.PERMISSION_DENIED, details: 'search is for signed-in users' }),
    Related: () => {
      throw new TypeError('cannot read properties of undefined (secret internals)');
    },
    IndexStats: (_call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) =>
      callback({ code: Status.UNIMPLEMENTED, details: 'not used here' }),
  },
};

let server: GrpcServer;

beforeAll(async () => {
  server = createGrpcServer({ logger, host: '127.0.0.1', health: { cacheMs: 0, watchIntervalMs: 30 } });
  server.addModule({ name: 'processing', grpc: [processing], checks: [databaseCheck] });
  server.addService(catalogue);
  server.addService(rawSearch);
  await server.start();
});

afterAll(async () => {
  await server.stop({ timeoutMs: 2000 });
});

beforeEach(() => {
  databaseUp = true;
  Object.assign(behaviour, {
    throwOnEmbed: undefined,
    unavailableLeft: 0,
    analyzeCalls: 0,
    slowAborted: false,
  });
});

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the call to fail');
}

describe('gRPC kit: calls', () => {
  it('answers a unary call with typed messages', async () => {
    const client = createGrpcClient(ProcessingService, server.address);
    try {
      const response = await client.embed({ texts: ['gear', 'pendulum'] });
      expect(response.$typeName).toBe('kaboodle.processing.v1.EmbedResponse');
      expect(response.vectors.map((v) => v.values)).toEqual([
        [4, 0.5],
        [8, 0.5],
      ]);
      expect([response.provider, response.model, response.dimensions]).toEqual(['test', 'length', 2]);
    } finally {
      client.close();
    }
  });

  it('streams server-streaming responses, and cancels the server when the consumer stops early', async () => {
    const client = createGrpcClient(CatalogueService, server.address);
    try {
      const ids: string[] = [];
      for await (const item of client.listForIndex({ ownerId: 'user-1' })) {
        if (item.entity.case === 'document') ids.push(item.entity.value.id);
      }
      expect(ids).toEqual(['doc-0', 'doc-1', 'doc-2']);

      behaviour.streamCancelled = false;
      let seen = 0;
      for await (const _ of client.listForIndex({ ownerId: 'many' })) {
        if (++seen === 5) break;
      }
      await expect.poll(() => behaviour.streamCancelled, { timeout: 2000 }).toBe(true);
    } finally {
      client.close();
    }
  });

  it('fails with UnavailableError when the deadline passes, and the handler sees the cancellation', async () => {
    const client = createGrpcClient(ProcessingService, server.address, {
      deadlineMs: 150,
      retry: { maxAttempts: 1 },
    });
    try {
      const started = Date.now();
      const err = await rejection(
        client.analyze({ file: { fileName: 'a.pdf' }, options: { instructions: 'slow' } }),
      );
      expect(Date.now() - started).toBeLessThan(1000);
      expect(err).toBeInstanceOf(UnavailableError);
      expect(err.message).toBe(
        'calling /kaboodle.processing.v1.ProcessingService/Analyze: deadline exceeded',
      );
      expect((err.cause as ServiceError).code).toBe(Status.DEADLINE_EXCEEDED);
      await expect.poll(() => behaviour.slowAborted, { timeout: 2000 }).toBe(true);
    } finally {
      client.close();
    }
  });
});

describe('gRPC kit: deadline propagation', () => {
  it('gives a downstream call no more time than the call it serves', async () => {
    // A front service whose handler calls the test server's slow Analyze with a generous 10 s deadline.
    const downstream = createGrpcClient(ProcessingService, server.address, {
      deadlineMs: 10_000,
      retry: { maxAttempts: 3, initialBackoffMs: 10 },
    });
    let downstreamError: Error | undefined;
    const front = createGrpcServer({ logger, host: '127.0.0.1' });
    front.addService(
      implementGrpcService(ProcessingService, {
        embed: async () => {
          downstreamError = await rejection(downstream.analyze({ options: { instructions: 'slow' } }));
          return {};
        },
        analyze: async () => ({}),
      }),
    );
    await front.start();
    const client = createGrpcClient(ProcessingService, front.address, {
      deadlineMs: 200,
      retry: { maxAttempts: 1 },
    });
    try {
      const started = Date.now();
      await rejection(client.embed({ texts: ['x'] }));
      expect(Date.now() - started).toBeLessThan(1000);
      // The downstream call was cut at the caller's deadline, not after its own 10 s, and not retried.
      await expect.poll(() => downstreamError, { timeout: 2000 }).toBeInstanceOf(UnavailableError);
      expect((downstreamError?.cause as ServiceError).code).toBe(Status.DEADLINE_EXCEEDED);
      expect(behaviour.analyzeCalls).toBe(1);
    } finally {
      client.close();
      downstream.close();
      await front.stop({ timeoutMs: 500 });
    }
  });
});

describe('gRPC kit: retries', () => {
  it('retries an idempotent call after UNAVAILABLE and succeeds', async () => {
    behaviour.unavailableLeft = 2;
    const client = createGrpcClient(ProcessingService, server.address, {
      retry: { maxAttempts: 3, initialBackoffMs: 10 },
    });
    try {
      const response = await client.analyze({ file: { fileName: 'b.pdf' } });
      expect(response.result.case === 'document' && response.result.value.title).toBe('analysed b.pdf');
      expect(behaviour.analyzeCalls).toBe(3);
    } finally {
      client.close();
    }
  });

  it('gives up after maxAttempts, and a per-call `retry: false` makes one attempt', async () => {
    behaviour.unavailableLeft = 10;
    const client = createGrpcClient(ProcessingService, server.address, {
      retry: { maxAttempts: 2, initialBackoffMs: 10 },
    });
    try {
      const err = await rejection(client.analyze({ file: { fileName: 'c.pdf' } }));
      expect(err).toBeInstanceOf(UnavailableError);
      expect(behaviour.analyzeCalls).toBe(2);
      behaviour.analyzeCalls = 0;
      await rejection(client.analyze({ file: { fileName: 'c.pdf' } }, { retry: false }));
      expect(behaviour.analyzeCalls).toBe(1);
    } finally {
      client.close();
    }
  });

  it('does not retry a method the proto does not declare idempotent', async () => {
    // grpc.health.v1 Check declares no idempotency level; served here by a plain grpc-js Server.
    let checks = 0;
    const plain = new Server();
    plain.addService(toGrpcServiceDefinition(Health), {
      Check: (_call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
        checks++;
        callback({ code: Status.UNAVAILABLE, details: 'not yet' });
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      plain.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    );
    const client = createGrpcClient(Health, `127.0.0.1:${port}`, {
      retry: { maxAttempts: 5, initialBackoffMs: 10 },
    });
    try {
      expect(await rejection(client.check({}))).toBeInstanceOf(UnavailableError);
      expect(checks).toBe(1);
      const forced = createGrpcClient(Health, `127.0.0.1:${port}`, {
        retry: { maxAttempts: 3, initialBackoffMs: 10, retryNonIdempotent: true },
      });
      await rejection(forced.check({}));
      forced.close();
      expect(checks).toBe(4);
    } finally {
      client.close();
      plain.forceShutdown();
    }
  });

  it('reaches a server that starts listening after the first attempts failed', async () => {
    const port = await freePort();
    const client = createGrpcClient(ProcessingService, `127.0.0.1:${port}`, {
      retry: { maxAttempts: 12, initialBackoffMs: 50, maxBackoffMs: 200 },
    });
    const late = createGrpcServer({ logger, host: '127.0.0.1', port });
    late.addService(processing);
    try {
      const call = client.embed({ texts: ['late'] });
      await sleep(300);
      await late.start();
      const response = await call;
      expect(response.vectors[0]?.values).toEqual([4, 0.5]);
    } finally {
      client.close();
      await late.stop({ timeoutMs: 500 });
    }
  });
});

describe('gRPC kit: error mapping', () => {
  const cases = [
    [
      new InputError('Query must not be empty', { details: { field: 'query' } }),
      Status.INVALID_ARGUMENT,
      InputError,
    ],
    [new NotFoundError('Document d1 not found'), Status.NOT_FOUND, NotFoundError],
    [new ConflictError('Kaboodle "Art" already exists'), Status.ALREADY_EXISTS, ConflictError],
    [new NotAllowedError('Admins only'), Status.PERMISSION_DENIED, NotAllowedError],
    [new AuthenticationError('Session expired'), Status.UNAUTHENTICATED, AuthenticationError],
    [new TooLargeError('File size exceeds 20MB limit (21.00MB)'), Status.RESOURCE_EXHAUSTED, TooLargeError],
  ] as const;

  it.each(cases)(
    'maps %s to its gRPC code and back to the same domain error',
    async (thrown, code, Class) => {
      behaviour.throwOnEmbed = thrown;
      const client = createGrpcClient(ProcessingService, server.address);
      try {
        const err = await rejection(client.embed({ texts: ['x'] }));
        expect(err).toBeInstanceOf(Class);
        expect(err.message).toBe(thrown.message);
        expect((err.cause as ServiceError).code).toBe(code);
        if (thrown instanceof InputError) expect((err as InputError).details).toEqual({ field: 'query' });
      } finally {
        client.close();
      }
    },
  );

  it('keeps a rate limit’s retry delay, and hides an UnavailableError’s own message', async () => {
    const client = createGrpcClient(ProcessingService, server.address, { retry: { maxAttempts: 1 } });
    try {
      behaviour.throwOnEmbed = new RateLimitError('Too many requests', 7);
      const limited = await rejection(client.embed({ texts: ['x'] }));
      expect(limited).toBeInstanceOf(RateLimitError);
      expect((limited as RateLimitError).retryAfterSeconds).toBe(7);

      behaviour.throwOnEmbed = new UnavailableError('postgres at 10.0.0.7:5432 refused');
      const unavailable = await rejection(client.embed({ texts: ['x'] }));
      expect(unavailable).toBeInstanceOf(UnavailableError);
      expect(unavailable.message).not.toContain('10.0.0.7');
      expect((unavailable.cause as ServiceError).code).toBe(Status.UNAVAILABLE);
    } finally {
      client.close();
    }
  });

  it('turns an unexpected error into INTERNAL without leaking it, and logs it in full', async () => {
    const client = createGrpcClient(CatalogueService, server.address);
    try {
      const err = await rejection(client.getInventoryItem({ ownerId: 'u', id: 'i' }));
      expect(err).toBeInstanceOf(GrpcStatusError);
      expect((err as GrpcStatusError).code).toBe(Status.INTERNAL);
      expect(err.message).toBe(
        'calling /kaboodle.catalogue.v1.CatalogueService/GetInventoryItem: INTERNAL: Internal server error',
      );
      expect(err.message).not.toContain('hunter2');
      const logged = lines.find(
        (l) => l['rpc'] === '/kaboodle.catalogue.v1.CatalogueService/GetInventoryItem',
      );
      expect(logged).toMatchObject({
        level: 'error',
        code: 'INTERNAL',
        err: { message: expect.stringContaining('hunter2') },
      });
    } finally {
      client.close();
    }
  });

  it('maps statuses from raw grpc-js handlers, and a synchronous throw, the same way', async () => {
    const client = createGrpcClient(SearchService, server.address, { retry: { maxAttempts: 1 } });
    try {
      const denied = await rejection(client.search({ ownerId: 'u', query: 'q' }));
      expect(denied).toBeInstanceOf(NotAllowedError);
      expect(denied.message).toBe('search is for signed-in users');
      const crashed = await rejection(client.related({ ownerId: 'u', id: 'x' }));
      expect((crashed as GrpcStatusError).code).toBe(Status.INTERNAL);
      expect(crashed.message).not.toContain('secret');
    } finally {
      client.close();
    }
  });

  it('gives clients that know nothing of Kaboodle the standard codes', async () => {
    behaviour.throwOnEmbed = new NotFoundError('No such model');
    const plain = new Client(server.address, credentials.createInsecure());
    try {
      const definition = toGrpcServiceDefinition(ProcessingService)['Embed']!;
      const err = await new Promise<ServiceError>((resolve) =>
        plain.makeUnaryRequest(
          definition.path,
          definition.requestSerialize,
          definition.responseDeserialize,
          { texts: [] },
          new Metadata(),
          {},
          (e) => resolve(e!),
        ),
      );
      expect([err.code, err.details]).toEqual([Status.NOT_FOUND, 'No such model']);
      expect(err.metadata.get('kaboodle-error')).toEqual(['NotFoundError']);
    } finally {
      plain.close();
    }
  });
});

describe('gRPC kit: health', () => {
  it('reports SERVING while checks pass and NOT_SERVING for the services a failing check backs', async () => {
    const health = createGrpcClient(Health, server.address);
    try {
      expect((await health.check({ service: '' })).status).toBe(ServingStatus.SERVING);
      expect((await health.check({ service: ProcessingService.typeName })).status).toBe(
        ServingStatus.SERVING,
      );
      await checkGrpcHealth(server.address);

      databaseUp = false;
      expect((await health.check({ service: '' })).status).toBe(ServingStatus.NOT_SERVING);
      expect((await health.check({ service: ProcessingService.typeName })).status).toBe(
        ServingStatus.NOT_SERVING,
      );
      // The catalogue registered no checks, so the database does not take it down.
      expect((await health.check({ service: CatalogueService.typeName })).status).toBe(ServingStatus.SERVING);
      await expect(checkGrpcHealth(server.address)).rejects.toThrow(/NOT_SERVING/);
      await expect(
        checkGrpcHealth(server.address, { service: CatalogueService.typeName }),
      ).resolves.toBeUndefined();
      expect(await server.health.failures()).toEqual({ database: 'database is not answering' });

      const list = await health.list({});
      expect(list.statuses[ProcessingService.typeName]?.status).toBe(ServingStatus.NOT_SERVING);
      expect(list.statuses[CatalogueService.typeName]?.status).toBe(ServingStatus.SERVING);

      expect(await rejection(health.check({ service: 'kaboodle.nope.v1.Nope' }))).toBeInstanceOf(
        NotFoundError,
      );
      await expect(checkGrpcHealth('127.0.0.1:1', { timeoutMs: 500 })).rejects.toBeInstanceOf(
        UnavailableError,
      );
    } finally {
      health.close();
    }
  });

  it('streams status changes to Watch', async () => {
    const health = createGrpcClient(Health, server.address);
    const controller = new AbortController();
    try {
      const seen: ServingStatus[] = [];
      const watching = (async () => {
        for await (const update of health.watch(
          { service: ProcessingService.typeName },
          { signal: controller.signal },
        )) {
          seen.push(update.status);
          if (seen.length === 1) databaseUp = false;
          if (seen.length === 2) databaseUp = true;
          if (seen.length === 3) return;
        }
      })();
      await watching;
      expect(seen).toEqual([ServingStatus.SERVING, ServingStatus.NOT_SERVING, ServingStatus.SERVING]);

      const unknown = health.watch({ service: 'kaboodle.nope.v1.Nope' })[Symbol.asyncIterator]();
      expect((await unknown.next()).value?.status).toBe(ServingStatus.SERVICE_UNKNOWN);
      await unknown.return?.();
    } finally {
      controller.abort();
      health.close();
    }
  });
});

describe('gRPC kit: shutdown', () => {
  it('lets an in-flight call finish, reports NOT_SERVING to watchers, then refuses calls', async () => {
    const stopping = createGrpcServer({ logger, host: '127.0.0.1', health: { watchIntervalMs: 30 } });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    stopping.addService(
      implementGrpcService(ProcessingService, {
        embed: async () => {
          await released;
          return { provider: 'finished' };
        },
        analyze: async () => ({}),
      }),
    );
    await stopping.start();
    const client = createGrpcClient(ProcessingService, stopping.address, { retry: { maxAttempts: 1 } });
    const health = createGrpcClient(Health, stopping.address);
    try {
      const watched: ServingStatus[] = [];
      const watching = (async () => {
        for await (const u of health.watch({ service: '' })) watched.push(u.status);
      })();
      await expect.poll(() => watched.length).toBe(1);

      const inFlight = client.embed({ texts: ['x'] });
      await sleep(50);
      const stopped = stopping.stop({ timeoutMs: 3000 });
      await sleep(50);
      release();
      expect((await inFlight).provider).toBe('finished');
      await stopped;
      await watching;
      expect(watched).toEqual([ServingStatus.SERVING, ServingStatus.NOT_SERVING]);
      expect(await rejection(client.embed({ texts: ['y'] }))).toBeInstanceOf(UnavailableError);
    } finally {
      client.close();
      health.close();
    }
  });

  it('cuts calls still running at the shutdown deadline', async () => {
    const stuck = createGrpcServer({ logger, host: '127.0.0.1' });
    stuck.addService(
      implementGrpcService(ProcessingService, {
        embed: () => new Promise(() => {}),
        analyze: async () => ({}),
      }),
    );
    await stuck.start();
    const client = createGrpcClient(ProcessingService, stuck.address, {
      deadlineMs: 10_000,
      retry: { maxAttempts: 1 },
    });
    try {
      const call = rejection(client.embed({ texts: ['x'] }));
      await sleep(50);
      const started = Date.now();
      await stuck.stop({ timeoutMs: 200 });
      expect(Date.now() - started).toBeLessThan(1500);
      const err = await call;
      expect(err).toBeInstanceOf(Error);
      expect(
        lines.some((l) => l['msg'] === 'grpc calls still running at the shutdown deadline: cutting them'),
      ).toBe(true);
    } finally {
      client.close();
    }
  });
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
