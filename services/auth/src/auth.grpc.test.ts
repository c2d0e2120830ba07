import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthService, timestampMs } from '@kaboodle/proto';
import {
  AuthenticationError,
  createGrpcClient,
  createGrpcServer,
  createLogger,
  InputError,
  NotFoundError,
} from '@kaboodle/platform';
import type { Database, GrpcClient, GrpcServer } from '@kaboodle/platform';
import { createPgliteDatabase } from '@kaboodle/platform';
import { parseAuthConfig } from './auth-config.ts';
import { createLocalMailer } from './mail/local-mailer.ts';
import { createAuthModule } from './module.ts';
import type { AuthModule } from './module.ts';

const ctx = { ip: '127.0.0.1', userAgent: 'vitest' };
const mailDir = path.join(tmpdir(), `auth-grpc-mail-${randomBytes(6).toString('hex')}`);

describe('auth gRPC service (kaboodle.auth.v1.AuthService) on a loopback port', { timeout: 60_000 }, () => {
  let db: Database;
  let auth: AuthModule;
  let server: GrpcServer;
  let client: GrpcClient<typeof AuthService>;

  beforeAll(async () => {
    const logger = createLogger({ component: 'auth-grpc-test', level: 'silent' });
    db = createPgliteDatabase({
      dataDir: `memory://auth-grpc-${randomBytes(6).toString('hex')}`,
      schema: 'auth',
    });
    auth = createAuthModule({
      db,
      logger,
      config: parseAuthConfig({}),
      mailer: createLocalMailer({ dir: mailDir, from: 'kaboodle@localhost', logger }),
      listenUrl: () => 'http://kaboodle.test',
      options: { argon2: { memoryCost: 1024, timeCost: 1 } },
    });
    await auth.start();
    server = createGrpcServer({ logger, host: '127.0.0.1', port: 0 });
    server.addModule(auth);
    await server.start();
    client = createGrpcClient(AuthService, server.address);
  }, 60_000);
  afterAll(async () => {
    client?.close();
    await server?.stop({ timeoutMs: 1000 });
    await auth?.stop(); // lets links still being mailed finish
    await db?.close();
    await rm(mailDir, { recursive: true, force: true });
  });

  it('GetJwks returns the published public keys', async () => {
    const res = await client.getJwks({});
    expect(res.keys).toEqual(
      (await auth.jwks()).keys.map((k) =>
        expect.objectContaining({ kid: k.kid, kty: 'OKP', crv: 'Ed25519', x: k.x }),
      ),
    );
  });

  it('VerifyToken returns the user and session of a live token, UNAUTHENTICATED once it is revoked', async () => {
    const s = await auth.service.register(
      { email: 'rpc@example.com', password: 'Remote-Procedure-Call', name: 'Rpc' },
      ctx,
    );
    const res = await client.verifyToken({ token: s.accessToken });
    expect(res.user).toMatchObject({
      id: s.user.id,
      email: 'rpc@example.com',
      displayName: 'Rpc',
      roles: ['user'],
    });
    expect(timestampMs(res.expiresAt!)).toBe(Math.floor(s.accessExpiresAt.getTime() / 1000) * 1000);
    await auth.service.logout({ sessionToken: s.sessionToken });
    await expect(client.verifyToken({ token: s.accessToken })).rejects.toBeInstanceOf(AuthenticationError);
    await expect(client.verifyToken({ token: 'garbage' })).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('GetUser finds a user by id; NOT_FOUND for unknown ids, INVALID_ARGUMENT without one', async () => {
    const s = await auth.service.register(
      { email: 'who@example.com', password: 'Remote-Procedure-Call', name: 'Who' },
      ctx,
    );
    expect((await client.getUser({ userId: s.user.id })).user?.email).toBe('who@example.com');
    await expect(client.getUser({ userId: '00000000-0000-4000-8000-000000000000' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(client.getUser({ userId: 'not-a-uuid' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.getUser({ userId: '' })).rejects.toBeInstanceOf(InputError);
  });
});
