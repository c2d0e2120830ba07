import { afterEach, describe, expect, it } from 'vitest';
import { createTokenVerifier } from '@kaboodle/platform';
import type { Database } from '@kaboodle/platform';
import { createKeyStore, sealPrivateKey, unsealPrivateKey } from './key-store.service.ts';
import type { KeyStoreOptions } from './key-store.service.ts';
import { createTestDatabase } from './testing/test-database.ts';

const quiet = { info: () => {}, warn: () => {} };
const claims = { sub: 'u-1', email: 'ada@example.com', role: 'user' as const, sid: 's-1' };
const SECRET = 'a-long-enough-test-secret';

describe('signing key store', { timeout: 60_000 }, () => {
  let db: Database | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  const store = (database: Database, over: Partial<KeyStoreOptions> = {}) =>
    createKeyStore({
      db: database,
      logger: quiet,
      secret: SECRET,
      accessTokenTtlMs: 600_000,
      rotationMs: 30 * 86_400_000,
      ...over,
    });

  it('creates one Ed25519 key on first start and signs tokens the platform verifier accepts', async () => {
    db = await createTestDatabase();
    const keys = store(db);
    await keys.init();
    await store(db).init(); // a second start (or replica) reuses the key
    const jwks = await keys.jwks();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d'); // never the private part

    const { token, expiresAt } = await keys.sign(claims);
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(590_000);
    const verifier = createTokenVerifier({ getJwks: () => keys.jwks() });
    await expect(verifier.verify(token)).resolves.toMatchObject({
      id: 'u-1',
      role: 'user',
      sessionId: 's-1',
    });
  });

  it('stores the private key encrypted when a secret is set', async () => {
    db = await createTestDatabase();
    await store(db).init();
    const { rows } = await db.query<{ private_key: string }>('SELECT private_key FROM signing_keys');
    expect(rows[0]!.private_key).toMatch(/^enc-v1:/);
    expect(rows[0]!.private_key).not.toContain('PRIVATE KEY');
  });

  it('refuses to start with a wrong or missing secret for encrypted keys', async () => {
    db = await createTestDatabase();
    await store(db).init();
    await expect(store(db, { secret: 'another-secret-of-length' }).init()).rejects.toThrow(
      /does not decrypt/,
    );
    await expect(store(db, { secret: null }).init()).rejects.toThrow(/AUTH_KEY_SECRET is not set/);
  });

  it('encrypts keys that were stored plain once a secret is configured', async () => {
    db = await createTestDatabase();
    await store(db, { secret: null }).init();
    expect(
      (await db.query<{ private_key: string }>('SELECT private_key FROM signing_keys')).rows[0]!.private_key,
    ).toMatch(/^plain-v1:/);
    const keys = store(db);
    await keys.init();
    expect(
      (await db.query<{ private_key: string }>('SELECT private_key FROM signing_keys')).rows[0]!.private_key,
    ).toMatch(/^enc-v1:/);
    await expect(keys.sign(claims)).resolves.toBeTruthy();
  });

  it('publishes the next key before it signs, then switches to it after the activation delay', async () => {
    db = await createTestDatabase();
    const keys = store(db, { activationDelayMs: 1500 });
    await keys.init();
    const oldKid = (await keys.jwks()).keys[0]!.kid;
    const nextKid = await keys.rotate();
    expect((await keys.jwks()).keys.map((k) => k.kid).sort()).toEqual([oldKid, nextKid].sort());
    const kidOf = (t: string) =>
      JSON.parse(Buffer.from(t.split('.')[0]!, 'base64url').toString()).kid as string;
    expect(kidOf((await keys.sign(claims)).token)).toBe(oldKid);
    await new Promise((r) => setTimeout(r, 1600));
    expect(kidOf((await keys.sign(claims)).token)).toBe(nextKid);
    expect((await keys.jwks()).keys.map((k) => k.kid)).toContain(oldKid); // its tokens are still live
  });

  it('rotates immediately on demand: new tokens use the new key, old tokens stay valid', async () => {
    db = await createTestDatabase();
    const keys = store(db);
    await keys.init();
    const old = await keys.sign(claims);
    const oldKid = (await keys.jwks()).keys[0]!.kid;
    const newKid = await keys.rotate({ immediate: true });
    expect(newKid).not.toBe(oldKid);
    const jwks = await keys.jwks();
    expect(jwks.keys.map((k) => k.kid).sort()).toEqual([oldKid, newKid].sort());
    const fresh = await keys.sign(claims);
    expect(JSON.parse(Buffer.from(fresh.token.split('.')[0]!, 'base64url').toString()).kid).toBe(newKid);
    const verifier = createTokenVerifier({ getJwks: () => keys.jwks() });
    await expect(verifier.verify(old.token)).resolves.toBeTruthy();
    await expect(verifier.verify(fresh.token)).resolves.toBeTruthy();
  });

  it('stops publishing a retired key once every token it signed has expired', async () => {
    db = await createTestDatabase();
    const keys = store(db, { accessTokenTtlMs: 60_000 });
    await keys.init();
    const oldKid = (await keys.jwks()).keys[0]!.kid;
    await keys.rotate({ immediate: true });
    await db.query(`UPDATE signing_keys SET retired_at = now() - interval '1 hour' WHERE kid = $1`, [oldKid]);
    const reloaded = store(db, { accessTokenTtlMs: 60_000 });
    await reloaded.init();
    expect((await reloaded.jwks()).keys.map((k) => k.kid)).not.toContain(oldKid);
  });

  it('rotates by age only when the active key is older than the rotation period', async () => {
    db = await createTestDatabase();
    const keys = store(db, { rotationMs: 3_600_000 });
    await keys.init();
    expect(await keys.rotateIfDue()).toBe(false);
    await db.query(`UPDATE signing_keys SET active_from = now() - interval '2 hours'`);
    expect(await keys.rotateIfDue()).toBe(true);
    expect((await keys.jwks()).keys).toHaveLength(2);
    expect(await keys.rotateIfDue()).toBe(false); // the next key is already waiting to take over
  });

  it('seals with the kid bound in: a sealed key moved to another kid does not open', async () => {
    const sealed = await sealPrivateKey('-----BEGIN PRIVATE KEY-----x', 'kid-a', SECRET);
    await expect(unsealPrivateKey(sealed, 'kid-a', SECRET)).resolves.toBe('-----BEGIN PRIVATE KEY-----x');
    await expect(unsealPrivateKey(sealed, 'kid-b', SECRET)).rejects.toThrow(/does not decrypt/);
  });
});
