// Token-signing keys in the auth schema (private keys sealed by key-store.service.ts before they get here).
// Times are passed in from the service (one clock for every decision), never taken from the database.
import type { JWK } from 'jose';
import type { Queryable } from '@kaboodle/platform';

export interface SigningKeyRecord {
  kid: string;
  alg: string;
  publicJwk: JWK;
  /** Sealed form: "enc-v1:…" or "plain-v1:…". */
  privateKey: string;
  createdAt: Date;
  /** When it starts signing (published from creation, so verifiers know it beforehand). */
  activeFrom: Date;
  /** When it stops signing (may be in the future); published until its last tokens expire. */
  retiredAt: Date | null;
}

interface KeyRow {
  kid: string;
  alg: string;
  public_jwk: JWK | string;
  private_key: string;
  created_at: Date | string;
  active_from: Date | string;
  retired_at: Date | string | null;
}

const toDate = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));

export interface SigningKeyRepository {
  /** Every stored key, newest activation first. */
  list(): Promise<SigningKeyRecord[]>;
  insert(
    key: Pick<SigningKeyRecord, 'kid' | 'alg' | 'publicJwk' | 'privateKey' | 'activeFrom'>,
  ): Promise<void>;
  /** Every other key still signing at `at` stops signing at `at`. */
  retireOthersAt(kid: string, at: Date): Promise<void>;
  updatePrivateKey(kid: string, privateKey: string): Promise<void>;
  /** Delete keys retired before `before` (no unexpired token can carry their kid any more). */
  deleteRetiredBefore(before: Date): Promise<number>;
}

export function createSigningKeyRepository(db: Queryable): SigningKeyRepository {
  return {
    async list() {
      const { rows } = await db.query<KeyRow>(
        `SELECT kid, alg, public_jwk, private_key, created_at, active_from, retired_at
         FROM signing_keys ORDER BY active_from DESC, created_at DESC, kid`,
      );
      return rows.map((r) => ({
        kid: r.kid,
        alg: r.alg,
        publicJwk: typeof r.public_jwk === 'string' ? (JSON.parse(r.public_jwk) as JWK) : r.public_jwk,
        privateKey: r.private_key,
        createdAt: toDate(r.created_at),
        activeFrom: toDate(r.active_from),
        retiredAt: r.retired_at === null ? null : toDate(r.retired_at),
      }));
    },
    async insert(k) {
      await db.query(
        `INSERT INTO signing_keys (kid, alg, public_jwk, private_key, active_from) VALUES ($1, $2, $3, $4, $5)`,
        [k.kid, k.alg, JSON.stringify(k.publicJwk), k.privateKey, k.activeFrom.toISOString()],
      );
    },
    async retireOthersAt(kid, at) {
      await db.query(
        `UPDATE signing_keys SET retired_at = $2 WHERE kid <> $1 AND (retired_at IS NULL OR retired_at > $2)`,
        [kid, at.toISOString()],
      );
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
