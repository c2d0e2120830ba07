// Kaboodle memberships on Elasticsearch: one plain index beside the alias (`<alias>-kaboodles`), one
// document per owner and kaboodle, written with external versions (a 409 is a stale write) and
// tombstones for deletes, like entities. It holds no vectors, so a reindex for a new embedding model
// never touches it. Reads are realtime GETs: a membership written a moment ago is seen at once.
import type { Client } from '@elastic/elasticsearch';
import { InputError, wrapError } from '@kaboodle/platform';
import { bulkIndex, esStatus } from './elasticsearch-bulk.ts';
import type { BulkOptions } from './elasticsearch-bulk.ts';
import type { EsHit } from './elasticsearch-queries.ts';
import { checkKaboodleRef, latestPerKaboodle, normaliseKaboodle } from './kaboodle-record.ts';
import type {
  IndexedEntityType,
  IndexedKaboodle,
  KaboodleIndex,
  KaboodleRef,
  SavedSearch,
} from './search-index.port.ts';

export const kaboodleIndexName = (alias: string) => `${alias}-kaboodles`;

/** One document per kaboodle and owner: another owner's kaboodle id can never overwrite it. */
export function kaboodleDocId(ref: { ownerId: string; id: string }): string {
  return `kaboodle:${ref.ownerId}:${ref.id}`;
}

/** The memberships index: nothing in it is searched as text; members and the saved search are stored only. */
export function kaboodleIndexBody(settings: { replicas?: number | undefined }) {
  return {
    settings: {
      number_of_shards: 1,
      ...(settings.replicas !== undefined && { number_of_replicas: settings.replicas }),
    },
    mappings: {
      dynamic: 'strict' as const,
      properties: {
        owner_id: { type: 'keyword' as const },
        kaboodle_id: { type: 'keyword' as const },
        version: { type: 'long' as const },
        deleted: { type: 'boolean' as const },
        members: { type: 'object' as const, enabled: false },
        smart: { type: 'object' as const, enabled: false },
        updated_at: { type: 'date' as const },
      },
    },
  };
}

export function kaboodleDocument(k: IndexedKaboodle) {
  if (Buffer.byteLength(kaboodleDocId(k)) > 512)
    throw new InputError('The kaboodle id and owner id are too long');
  return {
    owner_id: k.ownerId,
    kaboodle_id: k.id,
    version: k.version,
    deleted: false,
    members: k.members.map((m) => ({ type: m.entityType, id: m.id })),
    ...(k.smart && { smart: k.smart }),
    updated_at: k.updatedAt.toISOString(),
  };
}

export function kaboodleTombstone(r: KaboodleRef, now: Date = new Date()) {
  return {
    owner_id: r.ownerId,
    kaboodle_id: r.id,
    version: r.version,
    deleted: true,
    members: [],
    updated_at: now.toISOString(),
  };
}

export type ElasticsearchKaboodleIndex = KaboodleIndex & {
  readonly index: string;
  /** Create the index when missing (idempotent; a racing creator's index is fine). */
  open(): Promise<void>;
  deleteOwner(ownerId: string): Promise<void>;
};

export function createElasticsearchKaboodleIndex(options: {
  client: Client;
  alias: string;
  bulk: BulkOptions;
  replicas?: number | undefined;
}): ElasticsearchKaboodleIndex {
  const { client, bulk } = options;
  const index = kaboodleIndexName(options.alias);
  const where = `elasticsearch index ${index}`;

  return {
    index,

    async open() {
      try {
        if (await client.indices.exists({ index })) return;
        await client.indices.create({ index, ...kaboodleIndexBody({ replicas: options.replicas }) });
      } catch (err) {
        // Another replica created it between our check and our create.
        if (esStatus(err) === 400 && String((err as Error).message).includes('resource_already_exists'))
          return;
        throw wrapError(`creating ${where}`, err);
      }
    },

    async upsert(kaboodles) {
      if (kaboodles.length === 0) return { applied: 0, stale: 0 };
      const { latest, duplicates } = latestPerKaboodle(kaboodles.map(normaliseKaboodle));
      const ops = latest.map((k) => ({
        id: kaboodleDocId(k),
        version: k.version,
        document: kaboodleDocument(k),
      }));
      try {
        const r = await bulkIndex(client, index, ops, bulk);
        return { applied: r.applied, stale: r.stale + duplicates };
      } catch (err) {
        throw wrapError(`indexing ${latest.length} kaboodles into ${where}`, err);
      }
    },

    async delete(refs) {
      if (refs.length === 0) return { applied: 0, stale: 0 };
      for (const r of refs) checkKaboodleRef(r);
      const { latest, duplicates } = latestPerKaboodle(refs);
      const ops = latest.map((r) => ({
        id: kaboodleDocId(r),
        version: r.version,
        document: kaboodleTombstone(r),
      }));
      try {
        const r = await bulkIndex(client, index, ops, bulk);
        return { applied: r.applied, stale: r.stale + duplicates };
      } catch (err) {
        throw wrapError(`deleting ${latest.length} kaboodles from ${where}`, err);
      }
    },

    async get(ownerId, id) {
      if (!ownerId || !id) return undefined;
      let source: Record<string, unknown> | undefined;
      let version: number;
      try {
        const r = await client.get({ index, id: kaboodleDocId({ ownerId, id }) });
        source = r._source as Record<string, unknown> | undefined;
        version = r._version ?? 0;
      } catch (err) {
        if (esStatus(err) === 404) return undefined;
        throw wrapError(`reading kaboodle ${id} from ${where}`, err);
      }
      // Missing, deleted and another owner's (an id built to collide) answer alike.
      if (!source || source.deleted === true || source.owner_id !== ownerId || source.kaboodle_id !== id)
        return undefined;
      const members = Array.isArray(source.members) ? (source.members as { type: string; id: string }[]) : [];
      const smart = source.smart as SavedSearch | undefined;
      return {
        ownerId,
        id,
        version,
        members: members.map((m) => ({ entityType: m.type as IndexedEntityType, id: String(m.id) })),
        ...(smart ? { smart } : {}),
        updatedAt: new Date(String(source.updated_at)),
      };
    },

    async *listLive({ updatedBefore, batchSize }) {
      if (!Number.isFinite(updatedBefore.getTime()))
        throw new InputError('updatedBefore must be a valid date');
      const size = Math.min(10_000, Math.max(1, batchSize ?? 1_000));
      let after: unknown[] | undefined;
      for (;;) {
        let hits: EsHit[];
        try {
          const r = await client.search({
            index,
            size,
            _source: ['owner_id', 'kaboodle_id', 'version'],
            query: {
              bool: {
                filter: [{ range: { updated_at: { lt: updatedBefore.toISOString() } } }],
                must_not: [{ term: { deleted: true } }],
              },
            },
            sort: [{ owner_id: 'asc' }, { kaboodle_id: 'asc' }],
            ...(after ? { search_after: after as never } : {}),
          });
          hits = r.hits.hits as EsHit[];
        } catch (err) {
          // No kaboodle was ever written (an index created by an older version has none): nothing to list.
          if (esStatus(err) === 404) return;
          throw wrapError(`listing the kaboodles of ${where}`, err);
        }
        if (hits.length === 0) return;
        yield hits.map((h) => {
          const src = (h._source ?? {}) as Record<string, unknown>;
          return { ownerId: String(src.owner_id), id: String(src.kaboodle_id), version: Number(src.version) };
        });
        if (hits.length < size) return;
        after = (hits[hits.length - 1] as { sort?: unknown[] }).sort;
        if (!after) return;
      }
    },

    async deleteOwner(ownerId) {
      try {
        await client.deleteByQuery({
          index,
          query: { term: { owner_id: ownerId } },
          conflicts: 'proceed',
          refresh: true,
          wait_for_completion: true,
        });
      } catch (err) {
        if (esStatus(err) === 404) return;
        throw wrapError(`deleting owner ${ownerId}'s kaboodles from ${where}`, err);
      }
    },
  };
}
