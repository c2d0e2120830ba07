import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, base64url } from 'jose';
import type { CryptoKey, JSONWebKeySet, JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, UnavailableError } from '../errors.ts';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from './constants.ts';
import { createTokenVerifier } from './token-verifier.ts';

interface TestKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

async function makeKey(kid: string, alg: 'EdDSA' | 'ES256' = 'EdDSA'): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, privateKey, jwk };
}

const now = () => Math.floor(Date.now() / 1000);

function sign(
  key: TestKey,
  overrides: { claims?: Record<string, unknown>; header?: Record<string, unknown> } = {},
) {
  const alg = (key.jwk.alg as string) ?? 'EdDSA';
  const payload: Record<string, unknown> = {
    sub: 'user-1',
    email: 'ada@example.com',
    role: 'user',
    sid: 'session-1',
    iss: ACCESS_TOKEN_ISSUER,
    aud: ACCESS_TOKEN_AUDIENCE,
    iat: now(),
    exp: now() + 600,
    ...overrides.claims,
  };
  return new SignJWT(payload)
    .setProtectedHeader({ alg, kid: key.kid, typ: 'at+jwt', ...overrides.header })
    .sign(key.privateKey);
}

function unsignedToken(header: Record<string, unknown>, payload: Record<string, unknown>, signature = '') {
  const enc = (o: unknown) => base64url.encode(JSON.stringify(o));
  return `${enc(header)}.${enc(payload)}.${signature}`;
}

describe('createTokenVerifier (in-process key set)', () => {
  let key: TestKey;
  let jwks: JSONWebKeySet;
  let fetches = 0;
  const getJwks = async () => {
    fetches += 1;
    return jwks;
  };

  beforeAll(async () => {
    key = await makeKey('k1');
    jwks = { keys: [key.jwk] };
  });

  it('accepts a valid EdDSA access token and returns its user', async () => {
    const verifier = createTokenVerifier({ getJwks });
    const user = await verifier.verify(await sign(key));
    expect(user).toMatchObject({
      id: 'user-1',
      email: 'ada@example.com',
      role: 'user',
      sessionId: 'session-1',
    });
    expect(user.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('accepts ES256 too', async () => {
    const es = await makeKey('es1', 'ES256');
    const verifier = createTokenVerifier({ getJwks: async () => ({ keys: [es.jwk] }) });
    await expect(verifier.verify(await sign(es))).resolves.toMatchObject({ id: 'user-1' });
  });

  it('rejects a token expired beyond the clock skew with "Session expired"', async () => {
    const verifier = createTokenVerifier({ getJwks, clockToleranceSeconds: 5 });
    const token = await sign(key, { claims: { exp: now() - 60, iat: now() - 700 } });
    const err = await verifier.verify(token).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as Error).message).toBe('Session expired');
  });

  it('tolerates a small clock skew on exp but not on a future nbf beyond it', async () => {
    const verifier = createTokenVerifier({ getJwks, clockToleranceSeconds: 30 });
    await expect(verifier.verify(await sign(key, { claims: { exp: now() - 5 } }))).resolves.toBeTruthy();
    await expect(verifier.verify(await sign(key, { claims: { nbf: now() + 300 } }))).rejects.toBeInstanceOf(
      AuthenticationError,
    );
  });

  it('rejects alg "none" tokens', async () => {
    const verifier = createTokenVerifier({ getJwks });
    const token = unsignedToken(
      { alg: 'none', typ: 'at+jwt', kid: 'k1' },
      { sub: 'admin-1', email: 'x@example.com', role: 'admin', sid: 's', iat: now(), exp: now() + 600 },
    );
    await expect(verifier.verify(token)).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('rejects an HS256 token signed with the public key as the secret (algorithm confusion)', async () => {
    const verifier = createTokenVerifier({ getJwks });
    const secret = new TextEncoder().encode(JSON.stringify(key.jwk));
    const token = await new SignJWT({ email: 'x@example.com', role: 'admin', sid: 's' })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1', typ: 'at+jwt' })
      .setSubject('admin-1')
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setAudience(ACCESS_TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(secret);
    await expect(verifier.verify(token)).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('rejects a token signed by a key that is not in the set (forged)', async () => {
    const verifier = createTokenVerifier({ getJwks });
    const forger = await makeKey('k1'); // same kid, different key
    await expect(verifier.verify(await sign(forger))).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('rejects a tampered payload', async () => {
    const verifier = createTokenVerifier({ getJwks });
    const [h, , s] = (await sign(key)).split('.');
    const payload = base64url.encode(
      JSON.stringify({
        sub: 'user-1',
        email: 'a@b.c',
        role: 'admin',
        sid: 's',
        iat: now(),
        exp: now() + 600,
      }),
    );
    await expect(verifier.verify(`${h}.${payload}.${s}`)).rejects.toBeInstanceOf(AuthenticationError);
  });

  it.each([
    ['wrong issuer', { claims: { iss: 'someone-else' } }],
    ['wrong audience', { claims: { aud: 'another-api' } }],
    ['wrong typ (e.g. an ID token)', { header: { typ: 'JWT' } }],
    ['a role outside user/admin', { claims: { role: 'root' } }],
    ['no session id', { claims: { sid: undefined } }],
    ['no email', { claims: { email: 42 } }],
  ])('rejects a token with %s', async (_name, overrides) => {
    const verifier = createTokenVerifier({ getJwks });
    await expect(verifier.verify(await sign(key, overrides))).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('rejects garbage and empty strings', async () => {
    const verifier = createTokenVerifier({ getJwks });
    for (const bad of ['', 'abc', 'a.b.c', 'x'.repeat(10_000)]) {
      await expect(verifier.verify(bad)).rejects.toBeInstanceOf(AuthenticationError);
    }
  });

  it('refetches the key set on an unknown kid (rotation), at most once per cooldown', async () => {
    const rotated = await makeKey('k2');
    let set: JSONWebKeySet = { keys: [key.jwk] };
    let calls = 0;
    const verifier = createTokenVerifier({
      getJwks: async () => {
        calls += 1;
        return set;
      },
      refetchCooldownMs: 0,
    });
    await verifier.verify(await sign(key));
    expect(calls).toBe(1);
    set = { keys: [key.jwk, rotated.jwk] };
    await expect(verifier.verify(await sign(rotated))).resolves.toMatchObject({ id: 'user-1' });
    expect(calls).toBe(2);

    const slow = createTokenVerifier({ getJwks: async () => ((calls += 1), { keys: [key.jwk] }) });
    calls = 0;
    await slow.verify(await sign(key));
    const unknown = await makeKey('k-unknown');
    for (let i = 0; i < 5; i++)
      await expect(slow.verify(await sign(unknown))).rejects.toThrow('Session expired');
    expect(calls).toBe(1); // within the cooldown: forged kids do not hammer the source
  });

  it('reports a failing key source as unavailable (503), not as a bad token', async () => {
    const verifier = createTokenVerifier({
      getJwks: async () => {
        throw new Error('auth service down');
      },
    });
    await expect(verifier.verify(await sign(key))).rejects.toBeInstanceOf(UnavailableError);
  });

  it('rejects a revoked session when a revocation check is given', async () => {
    const verifier = createTokenVerifier({ getJwks, isRevoked: async (u) => u.sessionId === 'session-1' });
    await expect(verifier.verify(await sign(key))).rejects.toThrow('Session expired');
    await expect(verifier.verify(await sign(key, { claims: { sid: 'session-2' } }))).resolves.toBeTruthy();
  });

  it('needs exactly one key source', () => {
    expect(() => createTokenVerifier({})).toThrow(/exactly one/);
  });

  it('does not fetch keys before the first verification (lazy)', () => {
    fetches = 0;
    createTokenVerifier({ getJwks });
    expect(fetches).toBe(0);
  });
});

describe('createTokenVerifier (remote key set over loopback HTTP)', () => {
  let key: TestKey;
  let requests = 0;
  let url: string;
  const server = createServer((req, res) => {
    requests += 1;
    if (req.url !== '/api/auth/jwks') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [key.jwk] }));
  });

  beforeAll(async () => {
    key = await makeKey('remote-1');
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/auth/jwks`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('fetches the JWKS once and caches it', async () => {
    const verifier = createTokenVerifier({ jwksUrl: url });
    requests = 0;
    await verifier.verify(await sign(key));
    await verifier.verify(await sign(key));
    expect(requests).toBe(1);
  });

  it('is unavailable (503) when the auth service cannot be reached', async () => {
    const verifier = createTokenVerifier({ jwksUrl: 'http://127.0.0.1:9/api/auth/jwks' });
    await expect(verifier.verify(await sign(key))).rejects.toBeInstanceOf(UnavailableError);
  });
});
