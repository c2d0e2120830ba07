// The SQL behind the insights: the library's counts for the observatory, hashtag and category
// counts per week or month (when things arrived), the processing queue as the catalogue sees it,
// recent additions (recommendation seeds), identical files, and the near-duplicate pairs dismissed.
// The aggregate statements stay SQL as written (FILTER, percentile_cont, LATERAL jsonb expansion and
// UNIONs across both entity tables read more plainly so), typed by their rows; the rest is Kysely.
import { runAll, runCount, sql } from '@kaboodle/platform';
import type { Queryable } from '@kaboodle/platform';
import { catalogueSql as q0 } from './db-schema.ts';
import type { EntityKind } from './activity.repository.ts';
import { toNumber } from './entity-query.ts';
import type { MemberRef } from './kaboodle.repository.ts';

export type Period = 'week' | 'month';

export interface LibraryCounts {
  documents: number;
  document_categories: number;
  inventory_items: number;
  images: number;
  images_analysed: number;
  image_types: number;
  kaboodles: number;
  files_waiting: number;
  files_waiting_images: number;
  files_completed: number;
  files_failed: number;
  /** Age of the oldest file still waiting, ms (0 when none waits). */
  oldest_waiting_ms: number;
  /** Median upload-to-stored time of the last 50 files stored, ms (null before any). */
  recent_processing_ms: number | null;
}

export interface BucketCount {
  bucket: Date;
  key: string;
  kind: EntityKind;
  n: number;
}

const n = (v: number | string | null | undefined) => toNumber(v ?? 0);

/** count(*) is int8, a number from both adapters; extract() is numeric, text from both. */
interface LibraryRow {
  documents: number;
  document_categories: number;
  inventory_items: number;
  images: number;
  images_analysed: number;
  image_types: number;
  kaboodles: number;
  waiting: number;
  waiting_images: number;
  completed: number;
  failed: number;
  oldest_waiting_ms: number | string;
  recent_processing_ms: number | null;
}

export function createInsightsRepository(db: Queryable) {
  return {
    async library(ownerId: string): Promise<LibraryCounts> {
      const rows = await runAll(
        db,
        sql<LibraryRow>`SELECT
           (SELECT count(*) FROM documents WHERE owner_id = ${ownerId}) AS documents,
           (SELECT count(DISTINCT lower(category)) FROM documents WHERE owner_id = ${ownerId} AND category <> '')
             AS document_categories,
           (SELECT count(*) FROM inventory_items WHERE owner_id = ${ownerId}) AS inventory_items,
           (SELECT count(*) FROM inventory_items WHERE owner_id = ${ownerId} AND content_type LIKE 'image/%') AS images,
           (SELECT count(*) FROM inventory_items WHERE owner_id = ${ownerId} AND content_type LIKE 'image/%'
               AND (jsonb_array_length(objects) > 0 OR description <> '' OR name <> '')) AS images_analysed,
           (SELECT count(DISTINCT content_type) FROM inventory_items WHERE owner_id = ${ownerId}
               AND content_type LIKE 'image/%') AS image_types,
           (SELECT count(*) FROM kaboodles WHERE owner_id = ${ownerId}) AS kaboodles,
           f.waiting, f.waiting_images, f.completed, f.failed, f.oldest_waiting_ms,
           (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FROM (
              SELECT extract(epoch FROM (updated_at - created_at)) * 1000 AS ms FROM file_facts
               WHERE owner_id = ${ownerId} AND status = 'completed' AND NOT deleted
               ORDER BY updated_at DESC LIMIT 50) recent) AS recent_processing_ms
         FROM (
           SELECT count(*) FILTER (WHERE status = 'queued') AS waiting,
                  count(*) FILTER (WHERE status = 'queued' AND content_type LIKE 'image/%') AS waiting_images,
                  count(*) FILTER (WHERE status = 'completed') AS completed,
                  count(*) FILTER (WHERE status = 'failed') AS failed,
                  COALESCE(extract(epoch FROM (now() - min(created_at) FILTER (WHERE status = 'queued'))) * 1000, 0)
                    AS oldest_waiting_ms
             FROM file_facts WHERE owner_id = ${ownerId} AND NOT deleted
         ) f`,
      );
      const r = rows[0];
      if (!r) throw new Error('the library counts returned no row');
      return {
        documents: n(r.documents),
        document_categories: n(r.document_categories),
        inventory_items: n(r.inventory_items),
        images: n(r.images),
        images_analysed: n(r.images_analysed),
        image_types: n(r.image_types),
        kaboodles: n(r.kaboodles),
        files_waiting: n(r.waiting),
        files_waiting_images: n(r.waiting_images),
        files_completed: n(r.completed),
        files_failed: n(r.failed),
        oldest_waiting_ms: Math.max(0, Math.round(n(r.oldest_waiting_ms))),
        recent_processing_ms: r.recent_processing_ms === null ? null : Math.round(n(r.recent_processing_ms)),
      };
    },

    /** Hashtags (lower-cased, no leading #) per period since `since`, documents and items apart. */
    async hashtagCounts(ownerId: string, period: Period, since: Date): Promise<BucketCount[]> {
      const rows = await runAll(
        db,
        sql<BucketCount>`SELECT bucket, key, kind, count(*) AS n FROM (
           SELECT (date_trunc(${period}, d.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS bucket,
                  ltrim(lower(trim(h->>'tag')), '#') AS key, 'document' AS kind
             FROM documents d CROSS JOIN LATERAL jsonb_array_elements(d.hashtags) h
            WHERE d.owner_id = ${ownerId} AND d.created_at >= ${since}
           UNION ALL
           SELECT (date_trunc(${period}, i.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'),
                  ltrim(lower(trim(h->>'tag')), '#'), 'inventory_item'
             FROM inventory_items i CROSS JOIN LATERAL jsonb_array_elements(i.hashtags) h
            WHERE i.owner_id = ${ownerId} AND i.created_at >= ${since}
         ) t WHERE key <> '' GROUP BY bucket, key, kind`,
      );
      return rows;
    },

    /** Categories (as written, case folded for grouping) per period since `since`. */
    async categoryCounts(ownerId: string, period: Period, since: Date): Promise<BucketCount[]> {
      const rows = await runAll(
        db,
        sql<BucketCount>`SELECT bucket, min(category) AS key, kind, count(*) AS n FROM (
           SELECT (date_trunc(${period}, created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS bucket, trim(category) AS category,
                  'document' AS kind
             FROM documents WHERE owner_id = ${ownerId} AND created_at >= ${since} AND trim(category) <> ''
           UNION ALL
           SELECT (date_trunc(${period}, created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'), trim(category), 'inventory_item'
             FROM inventory_items WHERE owner_id = ${ownerId} AND created_at >= ${since} AND trim(category) <> ''
         ) t GROUP BY bucket, lower(category), kind`,
      );
      return rows;
    },

    /** The newest entities and the newest kaboodle additions: what the user is working on now. */
    async recentRefs(ownerId: string, limit: number): Promise<MemberRef[]> {
      const rows = await runAll(
        db,
        sql<{ entity_type: EntityKind; entity_id: string }>`SELECT entity_type, entity_id FROM (
           (SELECT 'document' AS entity_type, id AS entity_id, created_at AS at FROM documents
             WHERE owner_id = ${ownerId} ORDER BY created_at DESC LIMIT ${limit})
           UNION ALL
           (SELECT 'inventory_item', id, created_at FROM inventory_items
             WHERE owner_id = ${ownerId} ORDER BY created_at DESC LIMIT ${limit})
           UNION ALL
           (SELECT m.entity_type, m.entity_id, m.added_at FROM kaboodle_members m
              JOIN kaboodles k ON k.id = m.kaboodle_id AND k.owner_id = ${ownerId}
             ORDER BY m.added_at DESC LIMIT ${limit})
         ) r ORDER BY at DESC LIMIT ${limit} * 2`,
      );
      const seen = new Set<string>();
      return rows
        .map((r) => ({ type: r.entity_type, id: r.entity_id }))
        .filter((r) => !seen.has(`${r.type}:${r.id}`) && seen.add(`${r.type}:${r.id}`))
        .slice(0, limit);
    },

    /** The most recently changed entities (with their versions): the near-duplicate scan looks around them. */
    async recentlyChanged(ownerId: string, limit: number): Promise<(MemberRef & { version: number })[]> {
      const rows = await runAll(
        db,
        sql<{
          entity_type: EntityKind;
          entity_id: string;
          version: number;
        }>`SELECT entity_type, entity_id, version FROM (
           (SELECT 'document' AS entity_type, id AS entity_id, version, updated_at FROM documents
             WHERE owner_id = ${ownerId} ORDER BY updated_at DESC LIMIT ${limit})
           UNION ALL
           (SELECT 'inventory_item', id, version, updated_at FROM inventory_items
             WHERE owner_id = ${ownerId} ORDER BY updated_at DESC LIMIT ${limit})
         ) r ORDER BY updated_at DESC LIMIT ${limit}`,
      );
      return rows.map((r) => ({ type: r.entity_type, id: r.entity_id, version: r.version }));
    },

    /** Pairs made from byte-identical files (same SHA-256), within one kind. */
    async identicalPairs(ownerId: string, limit: number): Promise<[MemberRef, MemberRef][]> {
      const rows = await runAll(
        db,
        sql<{ kind: EntityKind; a_id: string; b_id: string }>`SELECT a.kind, a.id AS a_id, b.id AS b_id FROM (
           SELECT 'document' AS kind, id, sha256 FROM documents WHERE owner_id = ${ownerId} AND sha256 <> ''
           UNION ALL
           SELECT 'inventory_item', id, sha256 FROM inventory_items WHERE owner_id = ${ownerId} AND sha256 <> ''
         ) a JOIN (
           SELECT 'document' AS kind, id, sha256 FROM documents WHERE owner_id = ${ownerId} AND sha256 <> ''
           UNION ALL
           SELECT 'inventory_item', id, sha256 FROM inventory_items WHERE owner_id = ${ownerId} AND sha256 <> ''
         ) b ON a.kind = b.kind AND a.sha256 = b.sha256 AND a.id < b.id
         LIMIT ${limit}`,
      );
      return rows.map((r) => [
        { type: r.kind, id: r.a_id },
        { type: r.kind, id: r.b_id },
      ]);
    },

    async dismissed(ownerId: string): Promise<Set<string>> {
      const rows = await runAll(
        db,
        q0
          .selectFrom('dismissed_duplicates')
          .select(['a_type', 'a_id', 'b_type', 'b_id'])
          .where('owner_id', '=', ownerId),
      );
      return new Set(
        rows.map((r) => pairKey({ type: r.a_type, id: r.a_id }, { type: r.b_type, id: r.b_id })),
      );
    },

    async dismiss(ownerId: string, a: MemberRef, b: MemberRef): Promise<void> {
      const [x, y] = ordered(a, b);
      await runCount(
        db,
        q0
          .insertInto('dismissed_duplicates')
          .values({ owner_id: ownerId, a_type: x.type, a_id: x.id, b_type: y.type, b_id: y.id })
          .onConflict((oc) => oc.doNothing()),
      );
    },

    /**
     * Changes when anything of the owner's changes: entities, kaboodles (their additions feed the
     * recommendations), files (the queue's figures) and dismissed pairs. The insights' cache key.
     */
    async generation(ownerId: string): Promise<string> {
      const rows = await runAll(
        db,
        // one row of subselects: the cheapest way to see that anything changed
        sql<{
          d: number;
          i: number;
          dn: number;
          inn: number;
          x: number;
          k: number;
          kn: number;
          f: Date | null;
        }>`SELECT (SELECT COALESCE(max(version), 0) FROM documents WHERE owner_id = ${ownerId}) AS d,
                (SELECT COALESCE(max(version), 0) FROM inventory_items WHERE owner_id = ${ownerId}) AS i,
                (SELECT count(*) FROM documents WHERE owner_id = ${ownerId}) AS dn,
                (SELECT count(*) FROM inventory_items WHERE owner_id = ${ownerId}) AS inn,
                (SELECT count(*) FROM dismissed_duplicates WHERE owner_id = ${ownerId}) AS x,
                (SELECT COALESCE(max(version), 0) FROM kaboodles WHERE owner_id = ${ownerId}) AS k,
                (SELECT count(*) FROM kaboodles WHERE owner_id = ${ownerId}) AS kn,
                (SELECT max(updated_at) FROM file_facts WHERE owner_id = ${ownerId}) AS f`,
      );
      const r = rows[0];
      if (!r) throw new Error('the generation query returned no row');
      const files = r.f ? r.f.getTime() : 0;
      return [r.d, r.i, r.dn, r.inn, r.x, r.k, r.kn, files].map(String).join(':');
    },
  };
}

const refKey = (r: MemberRef) => `${r.type}:${r.id}`;
function ordered(a: MemberRef, b: MemberRef): [MemberRef, MemberRef] {
  return refKey(a) < refKey(b) ? [a, b] : [b, a];
}
/** One key per unordered pair. */
export function pairKey(a: MemberRef, b: MemberRef): string {
  const [x, y] = ordered(a, b);
  return `${refKey(x)}|${refKey(y)}`;
}

export type InsightsRepository = ReturnType<typeof createInsightsRepository>;
