// The embedded image vector index: one LanceDB table (`image_vectors`) in the search folder, beside
// the text table. Rows are keyed like the text index (owner, type, id), carry the version and a
// `deleted` tombstone (so a late, older upsert never brings a deleted item back) and the model that
// made the vector. Search is an exact cosine scan of the owner's rows: an owner holds thousands of
// photos at most, where a scan is a few milliseconds and needs no index upkeep.
import { mkdir } from 'node:fs/promises';
import * as lancedb from '@lancedb/lancedb';
import type { Connection, Table } from '@lancedb/lancedb';
import { Bool, Field, FixedSizeList, Float32, Int64, List, Schema, Utf8 } from 'apache-arrow';
import { InputError } from '@kaboodle/platform';
import type { ImageIndex, ImageQuery, ImageRecord } from './image-index.port.ts';
import { entityKey } from './lancedb-search-index.ts';
import { sqlString, sqlStringList } from './lance-filter.ts';
import type { EntityRef, IndexedEntityType, SearchHit, UpsertOutcome } from './search-index.port.ts';
import { clampLimit, cosineDistanceToScore } from './search-scoring.ts';

export interface LanceDbImageIndexOptions {
  /** The search index folder (KABOODLE_DATA_DIR/search). */
  dir: string;
  dimensions: number;
  model: string;
  tableName?: string;
}

interface Row {
  key: string;
  id: string;
  owner_id: string;
  entity_type: string;
  version: bigint;
  deleted: boolean;
  model: string;
  title: string;
  description: string;
  category: string;
  image_url: string;
  hashtags: string[];
  vector: number[];
}

export function createLanceDbImageIndex(options: LanceDbImageIndexOptions): ImageIndex {
  const dims = options.dimensions;
  const tableName = options.tableName ?? 'image_vectors';
  const schema = new Schema([
    new Field('key', new Utf8(), false),
    new Field('id', new Utf8(), false),
    new Field('owner_id', new Utf8(), false),
    new Field('entity_type', new Utf8(), false),
    new Field('version', new Int64(), false),
    new Field('deleted', new Bool(), false),
    new Field('model', new Utf8(), false),
    new Field('title', new Utf8(), false),
    new Field('description', new Utf8(), false),
    new Field('category', new Utf8(), false),
    new Field('image_url', new Utf8(), false),
    new Field('hashtags', new List(new Field('item', new Utf8(), true)), false),
    new Field('vector', new FixedSizeList(dims, new Field('item', new Float32(), true)), false),
  ]);
  let db: Connection | undefined;
  let table: Table | undefined;
  let opening: Promise<void> | undefined;
  let created = false;
  /** One write at a time: the version check and the write must not interleave. */
  let writing: Promise<unknown> = Promise.resolve();

  const t = (): Table => {
    if (!table) throw new Error('the image index is not open (call open() first)');
    return table;
  };
  const zero = (): number[] => new Array<number>(dims).fill(0);

  function checkRecord(r: ImageRecord): void {
    if (r.model !== options.model) {
      throw new InputError(
        `The photo vector of ${r.id} comes from ${r.model}; this index holds ${options.model}`,
      );
    }
    if (r.vector.length !== dims) {
      throw new InputError(
        `The photo vector of ${r.id} has ${r.vector.length} dimensions; the index expects ${dims}`,
      );
    }
    for (const v of r.vector)
      if (!Number.isFinite(v)) throw new InputError(`The photo vector of ${r.id} is not finite`);
  }

  async function write(rows: Row[]): Promise<UpsertOutcome> {
    const run = writing.then(async () => {
      const winner = new Map<string, Row>();
      for (const r of rows) {
        const w = winner.get(r.key);
        if (!w || r.version > w.version) winner.set(r.key, r);
      }
      const keys = [...winner.keys()];
      const stored = new Map<string, bigint>();
      if (keys.length > 0) {
        const found = (await t()
          .query()
          .where(`key IN (${sqlStringList(keys)})`)
          .select(['key', 'version'])
          .toArray()) as { key: string; version: bigint }[];
        for (const f of found) stored.set(f.key, BigInt(f.version));
      }
      const toWrite = [...winner.values()].filter((r) => {
        const s = stored.get(r.key);
        return s === undefined || s < r.version;
      });
      if (toWrite.length > 0) {
        const data = lancedb.makeArrowTable(toWrite as unknown as Record<string, unknown>[], { schema });
        await t()
          .mergeInsert('key')
          .whenMatchedUpdateAll({ where: 'target.version < source.version' })
          .whenNotMatchedInsertAll()
          .execute(data);
      }
      return { applied: toWrite.length, stale: rows.length - toWrite.length };
    });
    writing = run.catch(() => undefined);
    return run;
  }

  return {
    kind: 'lancedb',
    dimensions: dims,
    model: options.model,
    get created() {
      return created;
    },

    async open() {
      opening ??= (async () => {
        created = false;
        await mkdir(options.dir, { recursive: true });
        db = await lancedb.connect(options.dir);
        if ((await db.tableNames()).includes(tableName)) {
          table = await db.openTable(tableName);
          const vf = (await table.schema()).fields.find((f) => f.name === 'vector');
          const size = (vf?.type as { listSize?: number } | undefined)?.listSize;
          if (size !== dims) {
            // Another image model: its vectors cannot be compared with the new one's. Start over;
            // the rebuild from the catalogue fills it again.
            await db.dropTable(tableName);
            table = await db.createEmptyTable(tableName, schema, { existOk: true });
            created = true;
          }
        } else {
          table = await db.createEmptyTable(tableName, schema, { existOk: true });
          created = true;
        }
        const indices = await table.listIndices();
        if (!indices.some((i) => i.columns.includes('key')))
          await table.createIndex('key', { config: lancedb.Index.btree() });
        if (!indices.some((i) => i.columns.includes('owner_id')))
          await table.createIndex('owner_id', { config: lancedb.Index.btree() });
      })().catch((err: unknown) => {
        opening = undefined;
        throw err;
      });
      return opening;
    },

    async upsert(records) {
      records.forEach(checkRecord);
      return write(
        records.map((r) => ({
          key: entityKey(r.ownerId, r.entityType, r.id),
          id: r.id,
          owner_id: r.ownerId,
          entity_type: r.entityType,
          version: BigInt(r.version),
          deleted: false,
          model: r.model,
          title: r.title,
          description: r.description,
          category: r.category,
          image_url: r.imageUrl,
          hashtags: r.hashtags,
          vector: Array.from(r.vector),
        })),
      );
    },

    async delete(refs) {
      return write(
        refs.map((r) => ({
          key: entityKey(r.ownerId, r.entityType, r.id),
          id: r.id,
          owner_id: r.ownerId,
          entity_type: r.entityType,
          version: BigInt(r.version),
          deleted: true,
          model: options.model,
          title: '',
          description: '',
          category: '',
          image_url: '',
          hashtags: [],
          vector: zero(),
        })),
      );
    },

    async deleteOwner(ownerId) {
      await (writing = writing
        .then(() => t().delete(`owner_id = ${sqlString(ownerId)}`))
        .catch(() => undefined));
    },

    async search(query: ImageQuery): Promise<SearchHit[]> {
      if (query.vector.length !== dims) {
        throw new InputError(
          `The photo vector has ${query.vector.length} dimensions; the index expects ${dims}`,
        );
      }
      const parts = [
        `owner_id = ${sqlString(query.ownerId)}`,
        'deleted = false',
        `model = ${sqlString(options.model)}`,
      ];
      if (query.exclude) {
        parts.push(
          `key <> ${sqlString(entityKey(query.ownerId, query.exclude.entityType, query.exclude.id))}`,
        );
      }
      const rows = (await t()
        .query()
        .nearestTo(Array.from(query.vector))
        .distanceType('cosine')
        .where(parts.join(' AND '))
        .bypassVectorIndex()
        .select([
          'id',
          'entity_type',
          'title',
          'description',
          'category',
          'image_url',
          'hashtags',
          '_distance',
        ])
        .limit(clampLimit(query.limit, 100))
        .toArray()) as Record<string, unknown>[];
      const min = query.minSimilarity ?? 0;
      return rows
        .map((r) => ({
          entityType: r.entity_type as IndexedEntityType,
          id: r.id as string,
          title: r.title as string,
          description: r.description as string,
          content: '',
          url: '',
          imageUrl: r.image_url as string,
          category: r.category as string,
          hashtags: [...((r.hashtags as Iterable<string> | null) ?? [])],
          score: cosineDistanceToScore(Number(r._distance)),
        }))
        .filter((h) => h.score >= min);
    },

    async vectorOf(ref: Omit<EntityRef, 'version'>) {
      const rows = (await t()
        .query()
        .where(`key = ${sqlString(entityKey(ref.ownerId, ref.entityType, ref.id))} AND deleted = false`)
        .select(['vector', 'model'])
        .limit(1)
        .toArray()) as { vector: { toArray(): Float32Array } | number[]; model: string }[];
      const row = rows[0];
      if (!row || row.model !== options.model) return undefined;
      return Float32Array.from(Array.isArray(row.vector) ? row.vector : row.vector.toArray());
    },

    async count(ownerId?: string) {
      return t().countRows(
        ownerId ? `owner_id = ${sqlString(ownerId)} AND deleted = false` : 'deleted = false',
      );
    },

    async ping() {
      await t().countRows('deleted = false');
    },

    async close() {
      await writing.catch(() => undefined);
      table?.close();
      db?.close();
      table = undefined;
      db = undefined;
      opening = undefined;
    },
  };
}
