// Zero trust between services over real mutual TLS (certificates made with openssl): a catalogue-like
// server that lets only `search` call ListForIndex; the web pod's certificate, a certificate without
// a service identity, one from another CA and no certificate at all are refused, on every call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials } from '@grpc/grpc-js';
import { CatalogueService, Health, HealthCheckResponse_ServingStatus } from '@kaboodle/proto';
import { AuthenticationError, NotAllowedError, UnavailableError } from '../errors.ts';
import { createLogger } from '../log/index.ts';
import { createGrpcClient, createGrpcServer, grpcClientTls, implementGrpcService } from './index.ts';
import type { GrpcServer } from './index.ts';
import { createTestCertificates } from './testing/test-certificates.ts';
import type { TestCertificates } from './testing/test-certificates.ts';

const logger = createLogger({ component: 'grpc-identity-test', level: 'silent' });
let certs: TestCertificates;
let otherCa: TestCertificates;
let server: GrpcServer;
const served: string[] = [];

beforeAll(async () => {
  certs = createTestCertificates();
  otherCa = createTestCertificates();
  server = createGrpcServer({ logger, host: '127.0.0.1', tls: certs.files('catalogue') });
  server.addService(
    implementGrpcService(
      CatalogueService,
      {
        async *listForIndex(request) {
          served.push(request.ownerId);
          yield { entity: { case: 'document', value: { id: 'd1', ownerId: request.ownerId } } };
        },
        async getDocument() {
          return {};
        },
        async getInventoryItem() {
          return {};
        },
      },
      { ListForIndex: ['search'], GetDocument: ['search'] },
    ),
  );
  await server.start();
});

afterAll(async () => {
  await server?.stop({ timeoutMs: 500 });
  certs?.remove();
  otherCa?.remove();
});

const client = (creds: ReturnType<typeof grpcClientTls>) =>
  createGrpcClient(CatalogueService, server.address, {
    logger,
    credentials: creds,
    retry: { maxAttempts: 1 },
  });

async function list(c: ReturnType<typeof client>): Promise<string[]> {
  const ids: string[] = [];
  for await (const m of c.listForIndex({ ownerId: 'u1' })) ids.push(m.entity.value!.id);
  return ids;
}

describe('gRPC between services: mutual TLS and per-method callers', () => {
  it('lets the search service call ListForIndex with its certificate', async () => {
    const search = client(grpcClientTls(certs.files('search')));
    try {
      expect(await list(search)).toEqual(['d1']);
      expect(await search.getDocument({ ownerId: 'u1', id: 'd1' })).toBeDefined();
    } finally {
      search.close();
    }
  });

  it("refuses the web pod's certificate on every method it is not listed for (PERMISSION_DENIED)", async () => {
    const web = client(grpcClientTls(certs.files('web')));
    const before = served.length;
    try {
      await expect(list(web)).rejects.toBeInstanceOf(NotAllowedError);
      await expect(list(web)).rejects.toThrow(/web may not call ListForIndex/);
      // Unlisted methods are refused to everyone, search included: deny by default.
      const search = client(grpcClientTls(certs.files('search')));
      await expect(search.getInventoryItem({ ownerId: 'u1', id: 'i1' })).rejects.toBeInstanceOf(
        NotAllowedError,
      );
      search.close();
      expect(served.length).toBe(before); // the handler never ran
    } finally {
      web.close();
    }
  });

  it('refuses a certificate from the right CA that names no service (UNAUTHENTICATED)', async () => {
    const anonymous = client(grpcClientTls(certs.files('someone', { uri: false })));
    try {
      await expect(list(anonymous)).rejects.toBeInstanceOf(AuthenticationError);
    } finally {
      anonymous.close();
    }
  });

  it('refuses a certificate from another CA, and a client without any, at the handshake', async () => {
    const stranger = client(grpcClientTls(otherCa.files('search')));
    const { readFileSync } = await import('node:fs');
    const noCert = client(credentials.createSsl(readFileSync(certs.files('search').caFile)));
    const plaintext = createGrpcClient(CatalogueService, server.address, {
      logger,
      retry: { maxAttempts: 1 },
    });
    try {
      for (const c of [stranger, noCert, plaintext])
        await expect(list(c)).rejects.toBeInstanceOf(UnavailableError);
    } finally {
      for (const c of [stranger, noCert, plaintext]) c.close();
    }
  });

  it('lets any Kaboodle service ask grpc.health.v1, but only with a certificate', async () => {
    const health = createGrpcClient(Health, server.address, {
      logger,
      credentials: grpcClientTls(certs.files('web')),
    });
    try {
      expect((await health.check({ service: '' })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    } finally {
      health.close();
    }
  });
});
