// Token-signing keys in the auth schema (private keys sealed by key-store.service.ts before they get here).
// Times are passed in from the service (one clock for every decision), never taken from the database.
import type { JWK } from 'jose';
import { jsonb, runAll, runCount } from '@kaboodle/platform';
import type { Queryable } from '@kaboodle/platform';
import { authSql as q0 } from './db-schema.ts';

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
      const rows = await runAll(
        db,
        q0
          .selectFrom('signing_keys')
          .select(['kid', 'alg', 'public_jwk', 'private_key', 'created_at', 'active_from', 'retired_at'])
          .orderBy('active_from', 'desc')
          .orderBy('created_at', 'desc')
          .orderBy('kid'),
      );
      return rows.map((r) => ({
        kid: r.kid,
        alg: r.alg,
        publicJwk: r.public_jwk,
        privateKey: r.private_key,
        createdAt: r.created_at,
        activeFrom: r.active_from,
        retiredAt: r.retired_at,
      }));
    },
    async insert(k) {
      await runCount(
        db,
        q0.insertInto('signing_keys').values({
          kid: k.kid,
          alg: k.alg,
          public_jwk: jsonb(k.publicJwk),
          private_key: k.privateKey,
          active_from: k.activeFrom,
        }),
      );
    },
    async retireOthersAt(kid, at) {
      await runCount(
        db,
        q0
          .updateTable('signing_keys')
          .set({ retired_at: at })
          .where('kid', '<>', kid)
          .where((eb) => eb.or([eb('retired_at', 'is', null), eb('retired_at', '>', at)])),
      );
    },
    async updatePrivateKey(kid, privateKey) {
      await runCount(
        db,
        q0.updateTable('signing_keys').set({ private_key: privateKey }).where('kid', '=', kid),
      );
    },
    async deleteRetiredBefore(before) {
      return runCount(db, q0.deleteFrom('signing_keys').where('retired_at', '<', before));
    },
  };
}
