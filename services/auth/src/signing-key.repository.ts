// Token-signing keys in the auth schema (private keys sealed by key-store.service.ts before they get here).
import type { JWK } from 'jose';
import type { Queryable } from '@kaboodle/platform';

export interface SigningKeyRecord {
  kid: string;
  alg: string;
  publicJwk: JWK;
  /** Sealed form: "enc-v1:…" or "plain-v1:…". */
  privateKey: string;
  createdAt: Date;
  retiredAt: Date | null;
}

interface KeyRow {
  kid: string;
  alg: string;
  public_jwk: JWK | string;
  private_key: string;
  created_at: Date | string;
  retired_at: Date | string | null;
}

const toDate = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));

export interface SigningKeyRepository {
  /** Every stored key, newest first. */
  list(): Promise<SigningKeyRecord[]>;
  insert(key: Omit<SigningKeyRecord, 'createdAt' | 'retiredAt'>): Promise<void>;
  /** Retire every key but `kid` that is still active. */
  retireAllExcept(kid: string): Promise<void>;
  updatePrivateKey(kid: string, privateKey: string): Promise<void>;
  /** Delete keys retired before `before` (no unexpired token can carry their kid any more). */
  deleteRetiredBefore(before: Date): Promise<number>;
}

export function createSigningKeyRepository(db: Queryable): SigningKeyRepository {
  return {
    async list() {
      const { rows } = await db.query<KeyRow>(
        `SELECT kid, alg, public_jwk, private_key, created_at, retired_at FROM signing_keys ORDER BY created_at DESC, kid`,
      );
      return rows.map((r) => ({
        kid: r.kid,
        alg: r.alg,
        publicJwk: typeof r.public_jwk === 'string' ? (JSON.parse(r.public_jwk) as JWK) : r.public_jwk,
        privateKey: r.private_key,
        createdAt: toDate(r.created_at),
        retiredAt: r.retired_at === null ? null : toDate(r.retired_at),
      }));
    },
    async insert(k) {
      await db.query(`INSERT INTO signing_keys (kid, alg, public_jwk, private_key) VALUES ($1, $2, $3, $4)`, [
        k.kid,
        k.alg,
        JSON.stringify(k.publicJwk),
        k.privateKey,
      ]);
    },
    async retireAllExcept(kid) {
      await db.query(`UPDATE signing_keys SET retired_at = now() WHERE kid <> $1 AND retired_at IS NULL`, [
        kid,
      ]);
    },
    async updatePrivateKey(kid, privateKey) {
      await db.query(`UPDATE signing_keys SET private_key = $2 WHERE kid = $1`, [kid, privateKey]);
    },
    async deleteRetiredBefore(before) {
      const { rowCount } = await db.query(`DELETE FROM signing_keys WHERE retired_at < $1`, [
        before.toISOString(),
      ]);
      return rowCount;
    },
  };
}
