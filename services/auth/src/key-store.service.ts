// The access-token signing keys: created on first start, kept in the auth schema with the private key
// sealed (AES-256-GCM under a key derived from AUTH_KEY_SECRET) when a secret is configured, rotated
// on demand or by age, and published as a JWKS so every service verifies tokens locally.
import { createCipheriv, createDecipheriv, randomBytes, randomUUID, scrypt } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, importPKCS8, SignJWT } from 'jose';
import type { CryptoKey, JSONWebKeySet, JWK } from 'jose';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  ACCESS_TOKEN_TYPE,
  runCount,
  sql,
  UnavailableError,
} from '@kaboodle/platform';
import type { Database } from '@kaboodle/platform';
import type { Logger } from '@kaboodle/platform';
import { createSigningKeyRepository } from './signing-key.repository.ts';
import type { SigningKeyRecord } from './signing-key.repository.ts';

const ALG = 'EdDSA';
/** One rotation at a time across replicas: a transaction-scoped advisory lock. */
const LOCK = sql`SELECT pg_advisory_xact_lock(hashtext('kaboodle.auth.signing-keys'))`;
/** A retired key stays published this long after the last token it signed can have expired. */
const PUBLISH_MARGIN_MS = 5 * 60_000;

export interface AccessClaims {
  sub: string;
  email: string;
  role: 'user' | 'admin';
  sid: string;
}

export interface KeyStore {
  /** Create the first key (or re-seal plain keys) under a lock, then load. Call once at start. */
  init(): Promise<void>;
  sign(claims: AccessClaims): Promise<{ token: string; expiresAt: Date }>;
  /** Public keys: the active one and recently retired ones whose tokens may still be live. */
  jwks(): Promise<JSONWebKeySet>;
  /**
   * Generate the next signing key; returns its kid. It is published at once and signs after the
   * activation delay (so every verifier has it cached by then); `immediate` switches now, e.g. when
   * the current key may be compromised.
   */
  rotate(options?: { immediate?: boolean }): Promise<string>;
  /** Rotate when the active key is older than the configured age; returns whether it did. */
  rotateIfDue(): Promise<boolean>;
}

export interface KeyStoreOptions {
  db: Database;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Null: private keys are stored unsealed. */
  secret: string | null;
  accessTokenTtlMs: number;
  rotationMs: number;
  /** Reload keys from the database this often, so replicas see each other's rotations (default 60 s). */
  reloadAfterMs?: number;
  /**
   * How long a rotated-in key is published before it signs (default 2 min: longer than the reload
   * interval here and the key-set caches of verifiers).
   */
  activationDelayMs?: number;
}

// ---- sealing --------------------------------------------------------------------------------------

const derivedKeys = new Map<string, Promise<Buffer>>();

function deriveKey(secret: string, salt: Buffer): Promise<Buffer> {
  const cacheKey = `${salt.toString('base64url')}:${secret}`;
  let key = derivedKeys.get(cacheKey);
  if (!key) {
    key = new Promise<Buffer>((resolve, reject) =>
      scrypt(secret, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }, (err, k) =>
        err ? reject(err) : resolve(k),
      ),
    );
    derivedKeys.set(cacheKey, key);
  }
  return key;
}

/** "enc-v1:salt:iv:tag:ciphertext" (base64url); the kid is bound in as associated data. */
export async function sealPrivateKey(pem: string, kid: string, secret: string | null): Promise<string> {
  if (secret === null) return `plain-v1:${pem}`;
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await deriveKey(secret, salt), iv);
  cipher.setAAD(Buffer.from(kid));
  const ct = Buffer.concat([cipher.update(pem, 'utf8'), cipher.final()]);
  return ['enc-v1', salt, iv, cipher.getAuthTag(), ct]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join(':');
}

export async function unsealPrivateKey(sealed: string, kid: string, secret: string | null): Promise<string> {
  if (sealed.startsWith('plain-v1:')) return sealed.slice('plain-v1:'.length);
  const parts = sealed.split(':');
  if (parts[0] !== 'enc-v1' || parts.length !== 5)
    throw new Error(`signing key ${kid} is stored in an unknown format`);
  if (secret === null) {
    throw new Error('the signing keys are encrypted but AUTH_KEY_SECRET is not set');
  }
  const [salt, iv, tag, ct] = parts.slice(1).map((p) => Buffer.from(p, 'base64url')) as [
    Buffer,
    Buffer,
    Buffer,
    Buffer,
  ];
  try {
    const decipher = createDecipheriv('aes-256-gcm', await deriveKey(secret, salt), iv);
    decipher.setAAD(Buffer.from(kid));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8');
  } catch (err) {
    throw new Error('AUTH_KEY_SECRET does not decrypt the signing keys (was it changed?)', { cause: err });
  }
}

const isSealed = (stored: string): boolean => stored.startsWith('enc-v1:');

// ---- the store ------------------------------------------------------------------------------------

export function createKeyStore(options: KeyStoreOptions): KeyStore {
  const { db, logger, secret, accessTokenTtlMs, rotationMs } = options;
  const reloadAfterMs = options.reloadAfterMs ?? 60_000;
  const activationDelayMs = options.activationDelayMs ?? 2 * 60_000;
  const repo = createSigningKeyRepository(db);

  let signer: { kid: string; key: CryptoKey; activeFrom: Date } | undefined;
  let published: JWK[] = [];
  let loadedAt = 0;
  /** When the signing key changes next (a pre-published key activates): reload then. */
  let nextChangeAt = Infinity;
  let loading: Promise<void> | undefined;

  async function newKey(activeFrom: Date) {
    const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    const pem = await exportPKCS8(privateKey);
    return {
      kid,
      alg: ALG,
      publicJwk: { ...jwk, kid, alg: ALG, use: 'sig' },
      privateKey: await sealPrivateKey(pem, kid, secret),
      activeFrom,
    };
  }

  const signsAt = (r: SigningKeyRecord, t: number): boolean =>
    r.activeFrom.getTime() <= t && (r.retiredAt === null || r.retiredAt.getTime() > t);

  async function load(): Promise<void> {
    const rows = await repo.list();
    const t = Date.now();
    const active = rows.find((r) => signsAt(r, t)); // rows come newest activation first
    if (!active) throw new Error('no active signing key (init() has not run)');
    const horizon = t - accessTokenTtlMs - PUBLISH_MARGIN_MS;
    published = rows
      .filter((r) => r.retiredAt === null || r.retiredAt.getTime() > horizon)
      .map((r) => r.publicJwk);
    const upcoming = rows.map((r) => r.activeFrom.getTime()).filter((at) => at > t);
    nextChangeAt = upcoming.length > 0 ? Math.min(...upcoming) : Infinity;
    if (signer?.kid !== active.kid) {
      const pem = await unsealPrivateKey(active.privateKey, active.kid, secret);
      signer = { kid: active.kid, key: await importPKCS8(pem, active.alg), activeFrom: active.activeFrom };
    }
    loadedAt = t;
  }

  async function fresh(): Promise<void> {
    if (loadedAt === 0) throw new UnavailableError('signing keys are not loaded yet');
    const t = Date.now();
    if (t - loadedAt < reloadAfterMs && t < nextChangeAt) return;
    loading ??= load().finally(() => {
      loading = undefined;
    });
    await loading;
  }

  async function rotateUnderLock(opts: {
    immediate: boolean;
    onlyIfOlderThanMs?: number;
  }): Promise<string | null> {
    const kid = await db.transaction(async (tx) => {
      await runCount(tx, LOCK);
      const txRepo = createSigningKeyRepository(tx);
      const rows = await txRepo.list();
      const t = Date.now();
      if (opts.onlyIfOlderThanMs !== undefined) {
        // A key already waiting to take over means a rotation is under way.
        if (rows.some((r) => r.activeFrom.getTime() > t)) return null;
        const active = rows.find((r) => signsAt(r, t));
        if (active && t - active.activeFrom.getTime() < opts.onlyIfOlderThanMs) return null;
      }
      const switchAt = new Date(t + (opts.immediate ? 0 : activationDelayMs));
      const key = await newKey(switchAt);
      await txRepo.insert(key);
      await txRepo.retireOthersAt(key.kid, switchAt);
      await txRepo.deleteRetiredBefore(new Date(t - accessTokenTtlMs - PUBLISH_MARGIN_MS));
      return key.kid;
    });
    if (kid !== null) logger.info({ kid, immediate: opts.immediate }, 'signing key rotated');
    await load();
    return kid;
  }

  return {
    async init() {
      if (secret === null) {
        logger.warn('AUTH_KEY_SECRET is not set: token-signing private keys are stored unencrypted');
      }
      await db.transaction(async (tx) => {
        await runCount(tx, LOCK);
        const txRepo = createSigningKeyRepository(tx);
        const rows = await txRepo.list();
        if (secret !== null) {
          for (const r of rows.filter((row) => !isSealed(row.privateKey))) {
            const pem = await unsealPrivateKey(r.privateKey, r.kid, null);
            await txRepo.updatePrivateKey(r.kid, await sealPrivateKey(pem, r.kid, secret));
            logger.info({ kid: r.kid }, 'signing key encrypted with AUTH_KEY_SECRET');
          }
        }
        if (!rows.some((r) => signsAt(r, Date.now()))) {
          const key = await newKey(new Date());
          await txRepo.insert(key);
          await txRepo.retireOthersAt(key.kid, new Date());
          logger.info({ kid: key.kid }, 'signing key created');
        }
      });
      await load();
    },

    async sign(claims) {
      await fresh();
      const current = signer!;
      const expiresAt = new Date(Date.now() + accessTokenTtlMs);
      const token = await new SignJWT({ email: claims.email, role: claims.role, sid: claims.sid })
        .setProtectedHeader({ alg: ALG, kid: current.kid, typ: ACCESS_TOKEN_TYPE })
        .setSubject(claims.sub)
        .setIssuer(ACCESS_TOKEN_ISSUER)
        .setAudience(ACCESS_TOKEN_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .setJti(randomUUID())
        .sign(current.key);
      return { token, expiresAt };
    },

    async jwks() {
      await fresh();
      return { keys: published.map((k) => ({ ...k })) };
    },

    async rotate(opts = {}) {
      return (await rotateUnderLock({ immediate: opts.immediate === true }))!;
    },

    async rotateIfDue() {
      return (await rotateUnderLock({ immediate: false, onlyIfOlderThanMs: rotationMs })) !== null;
    },
  };
}
