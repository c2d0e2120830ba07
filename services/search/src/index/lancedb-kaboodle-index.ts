// Kaboodle memberships on the embedded index: a small second LanceDB table beside the entities
// (`<table>-kaboodles`, one row per owner and kaboodle, deletes kept as tombstones like entities'),
// written one change at a time under the same version guard, and read through an in-memory cache
// that every write of this process keeps exact (the folder has one writer: this process).
import * as lancedb from '@lancedb/lancedb';
import type { Connection, Table } from '@lancedb/lancedb';
import { Bool, Field, Int64, List, Schema, Utf8 } from 'apache-arrow';
import { wrapError } from '@kaboodle/platform';
import type { Logger } from '@kaboodle/platform';
import { LRUCache } from 'lru-cache';
import {
  checkKaboodleRef,
  latestPerKaboodle,
  normaliseKaboodle,
  savedSearchFrom,
  savedSearchJson,
} from './kaboodle-record.ts';
import { sqlString, sqlStringList } from './lance-filter.ts';
import type {
  IndexedEntityType,
  IndexedKaboodle,
  KaboodleIndex,
  KaboodleRef,
  UpsertOutcome,
} from './search-index.port.ts';

export interface LanceDbKaboodleIndexOptions {
  /** The open connection of the entity index (same folder). */
  connection: () => Connection;
  /** Table name, e.g. `kaboodle-entities-kaboodles`. */
  table: string;
  /** Kaboodles kept in memory (default 5,000; a kaboodle holds at most 2,000 member ids). */
  cacheSize?: number;
  /** Tombstones older than this are dropped at maintenance (as the entity index does). */
  tombstoneTtlMs: number;
  retainVersionsMs: number;
  /** Compact the table after this many writes (every write adds a small file). */
  optimizeEveryWrites?: number;
  logger?: Logger;
}

interface Row {
  key: string;
  owner_id: string;
  kaboodle_id: string;
  version: bigint;
  deleted: boolean;
  member_types: string[];
  member_ids: string[];
  smart: string;
  updated_at: bigint;
}

const SCHEMA = new Schema([
  new Field('key', new Utf8(), false),
  new Field('owner_id', new Utf8(), false),
  new Field('kaboodle_id', new Utf8(), false),
  new Field('version', new Int64(), false),
  new Field('deleted', new Bool(), false),
  new Field('member_types', new List(new Field('item', new Utf8(), true)), false),
  new Field('member_ids', new List(new Field('item', new Utf8(), true)), false),
  new Field('smart', new Utf8(), false),
  new Field('updated_at', new Int64(), false),
]);

const keyOf = (ownerId: string, id: string) => JSON.stringify([ownerId, id]);

export type LanceDbKaboodleIndex = KaboodleIndex & {
  open(): Promise<void>;
  deleteOwner(ownerId: string): Promise<void>;
  close(): void;
};

export function createLanceDbKaboodleIndex(options: LanceDbKaboodleIndexOptions): LanceDbKaboodleIndex {
  // Boxed, because lru-cache stores no null and a known absence is worth caching too.
  const cache = new LRUCache<string, { found: IndexedKaboodle | null }>({
    max: Math.max(options.cacheSize ?? 5_000, 1),
  });
  const optimizeEvery = options.optimizeEveryWrites ?? 50;
  let table: Table | undefined;
  let writes = 0;
  // One write at a time: the version check and the merge must not interleave.
  let tail: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };

  function t(): Table {
    if (!table) throw new Error('the kaboodle index is not open (call open() first)');
    return table;
  }

  function toRow(k: IndexedKaboodle): Row {
    return {
      key: keyOf(k.ownerId, k.id),
      owner_id: k.ownerId,
      kaboodle_id: k.id,
      version: BigInt(k.version),
      deleted: false,
      member_types: k.members.map((m) => m.entityType),
      member_ids: k.members.map((m) => m.id),
      smart: savedSearchJson(k.smart),
      updated_at: BigInt(k.updatedAt.getTime()),
    };
  }

  function tombstone(r: KaboodleRef): Row {
    return {
      key: keyOf(r.ownerId, r.id),
      owner_id: r.ownerId,
      kaboodle_id: r.id,
      version: BigInt(r.version),
      deleted: true,
      member_types: [],
      member_ids: [],
      smart: '',
      updated_at: BigInt(Date.now()),
    };
  }

  function fromRow(r: Record<string, unknown>): IndexedKaboodle {
    const types = listOf<string>(r.member_types);
    const ids = listOf<string>(r.member_ids);
    const smart = savedSearchFrom(r.smart);
    return {
      ownerId: String(r.owner_id),
      id: String(r.kaboodle_id),
      version: Number(r.version),
      members: ids.map((id, i) => ({ entityType: types[i] as IndexedEntityType, id })),
      ...(smart ? { smart } : {}),
      updatedAt: new Date(Number(r.updated_at)),
    };
  }

  /** Version-guarded write of rows (the highest version per kaboodle already chosen). */
  async function write(rows: Row[], duplicates: number): Promise<UpsertOutcome> {
    if (rows.length === 0) return { applied: 0, stale: duplicates };
    return serial(async () => {
      const stored = new Map<string, bigint>();
      const found = (await t()
        .query()
        .where(`key IN (${sqlStringList(rows.map((r) => r.key))})`)
        .select(['key', 'version'])
        .toArray()) as { key: string; version: bigint }[];
      for (const f of found) stored.set(f.key, BigInt(f.version));
      const fresh = rows.filter((r) => {
        const s = stored.get(r.key);
        return s === undefined || s < r.version;
      });
      if (fresh.length > 0) {
        const data = lancedb.makeArrowTable(fresh as unknown as Record<string, unknown>[], {
          schema: SCHEMA,
        });
        try {
          await t()
            .mergeInsert('key')
            .whenMatchedUpdateAll({ where: 'target.version < source.version' })
            .whenNotMatchedInsertAll()
            .execute(data);
        } finally {
          // Whatever happened, the cache must not answer from before this write.
          for (const r of fresh) cache.delete(r.key);
        }
        if (++writes >= optimizeEvery) await maintain();
      }
      return { applied: fresh.length, stale: rows.length - fresh.length + duplicates };
    });
  }

  async function maintain(): Promise<void> {
    writes = 0;
    try {
      await t().delete(`deleted = true AND updated_at < ${Math.trunc(Date.now() - options.tombstoneTtlMs)}`);
      await t().optimize({ cleanupOlderThan: new Date(Date.now() - options.retainVersionsMs) });
    } catch (err) {
      options.logger?.warn({ err }, 'kaboodle index maintenance failed; the next writes retry');
    }
  }

  return {
    async open() {
      try {
        const db = options.connection();
        const names = await db.tableNames();
        table = names.includes(options.table)
          ? await db.openTable(options.table)
          : await db.createEmptyTable(options.table, SCHEMA, { existOk: true });
        const indices = await table.listIndices();
        if (!indices.some((i) => i.columns.includes('key')))
          await table.createIndex('key', { config: lancedb.Index.btree() });
        cache.clear();
      } catch (err) {
        throw wrapError(`opening the kaboodle table ${options.table}`, err);
      }
    },

    async upsert(kaboodles) {
      const { latest, duplicates } = latestPerKaboodle(kaboodles.map(normaliseKaboodle));
      return write(latest.map(toRow), duplicates);
    },

    async delete(refs) {
      for (const r of refs) checkKaboodleRef(r);
      const { latest, duplicates } = latestPerKaboodle(refs);
      return write(latest.map(tombstone), duplicates);
    },

    async get(ownerId, id) {
      if (!ownerId || !id) return undefined;
      const key = keyOf(ownerId, id);
      const known = cache.get(key);
      if (known) return known.found ?? undefined;
      // Writes are serial: a read queued behind them caches nothing older than the last write.
      return serial(async () => {
        const rows = (await t()
          .query()
          .where(`key = ${sqlString(key)} AND deleted = false`)
          .limit(1)
          .toArray()) as Record<string, unknown>[];
        const found = rows[0] ? fromRow(rows[0]) : null;
        cache.set(key, { found });
        return found ?? undefined;
      });
    },

    async *listLive({ updatedBefore, batchSize }) {
      const before = Math.trunc(updatedBefore.getTime());
      const size = Math.max(1, batchSize ?? 1_000);
      const q = t()
        .query()
        .where(`deleted = false AND updated_at < ${before}`)
        .select(['owner_id', 'kaboodle_id', 'version']);
      let out: KaboodleRef[] = [];
      for await (const batch of q) {
        const owners = batch.getChild('owner_id');
        const ids = batch.getChild('kaboodle_id');
        const versions = batch.getChild('version');
        for (let i = 0; i < batch.numRows; i++) {
          out.push({
            ownerId: String(owners?.get(i)),
            id: String(ids?.get(i)),
            version: Number(versions?.get(i)),
          });
          if (out.length >= size) {
            yield out;
            out = [];
          }
        }
      }
      if (out.length > 0) yield out;
    },

    deleteOwner: (ownerId) =>
      serial(async () => {
        await t().delete(`owner_id = ${sqlString(ownerId)}`);
        cache.clear();
      }),

    close() {
      table?.close();
      table = undefined;
      cache.clear();
    },
  };
}

/** Arrow list values arrive as arrow Vectors (toArray()) or plain arrays. */
function listOf<T>(v: unknown): T[] {
  if (v == null) return [];
  if (Array.isArray(v)) return v as T[];
  const withToArray = v as { toArray?: () => ArrayLike<T> };
  if (typeof withToArray.toArray === 'function') return Array.from(withToArray.toArray());
  return [];
}
