// The embedded index's plain reads: an entity's version, the index's (or one owner's) size and every
// live entity, paged, for a rebuild's pruning.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Table } from '@lancedb/lancedb';
import { InputError } from '@kaboodle/platform';
import { sqlString } from './lance-filter.ts';
import type { EntityRef, IndexStats, IndexedEntityType } from './search-index.port.ts';
import { entityKey } from './lancedb-rows.ts';

export async function versionOfEntity(
  table: Table,
  ref: Omit<EntityRef, 'version'>,
): Promise<number | undefined> {
  const rows = (await table
    .query()
    .where(`key = ${sqlString(entityKey(ref.ownerId, ref.entityType, ref.id))}`)
    .select(['version', 'deleted'])
    .limit(1)
    .toArray()) as { version: bigint; deleted: boolean }[];
  const r = rows[0];
  return r && !r.deleted ? Number(r.version) : undefined;
}

/** The whole index (live entities, bytes on disk), or one owner's share. */
export async function indexStats(
  table: Table,
  where: { dir: string; dims: number },
  ownerId?: string,
): Promise<IndexStats> {
  if (ownerId === undefined) {
    return { entities: await table.countRows('deleted = false'), sizeBytes: await folderBytes(where.dir) };
  }
  // One owner's share, from that owner's rows only: nothing about other users shows in it.
  let entities = 0;
  let sizeBytes = 0;
  const q = table
    .query()
    .where(`deleted = false AND owner_id = ${sqlString(ownerId)}`)
    .select({ text: 'octet_length(search_text)', passages: 'cardinality(passage_text)' });
  for await (const batch of q) {
    const text = batch.getChild('text');
    const passages = batch.getChild('passages');
    for (let i = 0; i < batch.numRows; i++) {
      // the text as stored for keyword search + the entity's and its passages' float32 vectors
      sizeBytes += Number(text?.get(i) ?? 0) + (1 + Number(passages?.get(i) ?? 0)) * where.dims * 4;
    }
    entities += batch.numRows;
  }
  return { entities, sizeBytes };
}

export async function* listLiveEntities(
  table: () => Table,
  options: { updatedBefore: Date; batchSize?: number },
): AsyncIterable<EntityRef[]> {
  const size = Math.max(1, options.batchSize ?? 1_000);
  const before = Math.trunc(options.updatedBefore.getTime());
  if (!Number.isFinite(before)) throw new InputError('updatedBefore must be a valid date');
  const q = table()
    .query()
    .where(`deleted = false AND updated_at < ${before}`)
    .select(['id', 'owner_id', 'entity_type', 'version']);
  let out: EntityRef[] = [];
  for await (const batch of q) {
    const ids = batch.getChild('id');
    const owners = batch.getChild('owner_id');
    const types = batch.getChild('entity_type');
    const versions = batch.getChild('version');
    for (let i = 0; i < batch.numRows; i++) {
      out.push({
        id: String(ids?.get(i)),
        ownerId: String(owners?.get(i)),
        entityType: String(types?.get(i)) as IndexedEntityType,
        version: Number(versions?.get(i)),
      });
      if (out.length >= size) {
        yield out;
        out = [];
      }
    }
  }
  if (out.length > 0) yield out;
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += await folderBytes(p);
    else if (e.isFile()) total += await fileBytes(p);
  }
  return total;
}

/** A file's size, or 0 when a background compaction or cleanup removed it after the listing. */
async function fileBytes(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
}
