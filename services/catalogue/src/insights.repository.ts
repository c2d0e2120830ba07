// The SQL behind the insights: the library's counts for the observatory, hashtag and category
// counts per week or month (when things arrived), the processing queue as the catalogue sees it,
// recent additions (recommendation seeds), identical files, and the near-duplicate pairs dismissed.
import type { Queryable } from '@kaboodle/platform';
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

const n = (v: unknown) => toNumber(v ?? 0);

export function createInsightsRepository(db: Queryable) {
  return {
    async library(ownerId: string): Promise<LibraryCounts> {
      const { rows } = await db.query(
        `SELECT
           (SELECT count(*) FROM documents WHERE owner_id = $1) AS documents,
           (SELECT count(DISTINCT lower(category)) FROM documents WHERE owner_id = $1 AND category <> '')
             AS document_categories,
           (SELECT count(*) FROM inventory_items WHERE owner_id = $1) AS inventory_items,
           (SELECT count(*) FROM inventory_items WHERE owner_id = $1 AND content_type LIKE 'image/%') AS images,
           (SELECT count(*) FROM inventory_items WHERE owner_id = $1 AND content_type LIKE 'image/%'
               AND (jsonb_array_length(objects) > 0 OR description <> '' OR name <> '')) AS images_analysed,
           (SELECT count(DISTINCT content_type) FROM inventory_items WHERE owner_id = $1
               AND content_type LIKE 'image/%') AS image_types,
           (SELECT count(*) FROM kaboodles WHERE owner_id = $1) AS kaboodles,
           f.waiting, f.waiting_images, f.completed, f.failed, f.oldest_waiting_ms,
           (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FROM (
              SELECT extract(epoch FROM (updated_at - created_at)) * 1000 AS ms FROM file_facts
               WHERE owner_id = $1 AND status = 'completed' AND NOT deleted
               ORDER BY updated_at DESC LIMIT 50) recent) AS recent_processing_ms
         FROM (
           SELECT count(*) FILTER (WHERE status = 'queued') AS waiting,
                  count(*) FILTER (WHERE status = 'queued' AND content_type LIKE 'image/%') AS waiting_images,
                  count(*) FILTER (WHERE status = 'completed') AS completed,
                  count(*) FILTER (WHERE status = 'failed') AS failed,
                  COALESCE(extract(epoch FROM (now() - min(created_at) FILTER (WHERE status = 'queued'))) * 1000, 0)
                    AS oldest_waiting_ms
             FROM file_facts WHERE owner_id = $1 AND NOT deleted
         ) f`,
        [ownerId],
      );
      const r = rows[0] ?? {};
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
        recent_processing_ms:
          r.recent_processing_ms === null || r.recent_processing_ms === undefined
            ? null
            : Math.round(n(r.recent_processing_ms)),
      };
    },

    /** Hashtags (lower-cased, no leading #) per period since `since`, documents and items apart. */
    async hashtagCounts(ownerId: string, period: Period, since: Date): Promise<BucketCount[]> {
      const { rows } = await db.query(
        `SELECT bucket, key, kind, count(*) AS n FROM (
           SELECT (date_trunc($2, d.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS bucket,
                  ltrim(lower(trim(h->>'tag')), '#') AS key, 'document' AS kind
             FROM documents d CROSS JOIN LATERAL jsonb_array_elements(d.hashtags) h
            WHERE d.owner_id = $1 AND d.created_at >= $3
           UNION ALL
           SELECT (date_trunc($2, i.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'),
                  ltrim(lower(trim(h->>'tag')), '#'), 'inventory_item'
             FROM inventory_items i CROSS JOIN LATERAL jsonb_array_elements(i.hashtags) h
            WHERE i.owner_id = $1 AND i.created_at >= $3
         ) t WHERE key <> '' GROUP BY bucket, key, kind`,
        [ownerId, period, since],
      );
      return rows.map(toBucket);
    },

    /** Categories (as written, case folded for grouping) per period since `since`. */
    async categoryCounts(ownerId: string, period: Period, since: Date): Promise<BucketCount[]> {
      const { rows } = await db.query(
        `SELECT bucket, min(category) AS key, kind, count(*) AS n FROM (
           SELECT (date_trunc($2, created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS bucket, trim(category) AS category,
                  'document' AS kind
             FROM documents WHERE owner_id = $1 AND created_at >= $3 AND trim(category) <> ''
           UNION ALL
           SELECT (date_trunc($2, created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'), trim(category), 'inventory_item'
             FROM inventory_items WHERE owner_id = $1 AND created_at >= $3 AND trim(category) <> ''
         ) t GROUP BY bucket, lower(category), kind`,
        [ownerId, period, since],
      );
      return rows.map(toBucket);
    },

    /** The newest entities and the newest kaboodle additions: what the user is working on now. */
    async recentRefs(ownerId: string, limit: number): Promise<MemberRef[]> {
      const { rows } = await db.query(
        `SELECT entity_type, entity_id FROM (
           (SELECT 'document' AS entity_type, id AS entity_id, created_at AS at FROM documents
             WHERE owner_id = $1 ORDER BY created_at DESC LIMIT $2)
           UNION ALL
           (SELECT 'inventory_item', id, created_at FROM inventory_items
             WHERE owner_id = $1 ORDER BY created_at DESC LIMIT $2)
           UNION ALL
           (SELECT m.entity_type, m.entity_id, m.added_at FROM kaboodle_members m
              JOIN kaboodles k ON k.id = m.kaboodle_id AND k.owner_id = $1
             ORDER BY m.added_at DESC LIMIT $2)
         ) r ORDER BY at DESC LIMIT $2 * 2`,
        [ownerId, limit],
      );
      const seen = new Set<string>();
      return rows
        .map((r) => ({ type: r.entity_type as EntityKind, id: r.entity_id as string }))
        .filter((r) => !seen.has(`${r.type}:${r.id}`) && seen.add(`${r.type}:${r.id}`))
        .slice(0, limit);
    },

    /** The most recently changed entities (with their versions): the near-duplicate scan looks around them. */
    async recentlyChanged(ownerId: string, limit: number): Promise<(MemberRef & { version: number })[]> {
      const { rows } = await db.query(
        `SELECT entity_type, entity_id, version FROM (
           (SELECT 'document' AS entity_type, id AS entity_id, version, updated_at FROM documents
             WHERE owner_id = $1 ORDER BY updated_at DESC LIMIT $2)
           UNION ALL
           (SELECT 'inventory_item', id, version, updated_at FROM inventory_items
             WHERE owner_id = $1 ORDER BY updated_at DESC LIMIT $2)
         ) r ORDER BY updated_at DESC LIMIT $2`,
        [ownerId, limit],
      );
      return rows.map((r) => ({
        type: r.entity_type as EntityKind,
        id: r.entity_id as string,
        version: toNumber(r.version),
      }));
    },

    /** Pairs made from byte-identical files (same SHA-256), within one kind. */
    async identicalPairs(ownerId: string, limit: number): Promise<[MemberRef, MemberRef][]> {
      const { rows } = await db.query(
        `SELECT a.kind, a.id AS a_id, b.id AS b_id FROM (
           SELECT 'document' AS kind, id, sha256 FROM documents WHERE owner_id = $1 AND sha256 <> ''
           UNION ALL
           SELECT 'inventory_item', id, sha256 FROM inventory_items WHERE owner_id = $1 AND sha256 <> ''
         ) a JOIN (
           SELECT 'document' AS kind, id, sha256 FROM documents WHERE owner_id = $1 AND sha256 <> ''
           UNION ALL
           SELECT 'inventory_item', id, sha256 FROM inventory_items WHERE owner_id = $1 AND sha256 <> ''
         ) b ON a.kind = b.kind AND a.sha256 = b.sha256 AND a.id < b.id
         LIMIT $2`,
        [ownerId, limit],
      );
      return rows.map((r) => [
        { type: r.kind as EntityKind, id: r.a_id as string },
        { type: r.kind as EntityKind, id: r.b_id as string },
      ]);
    },

    async dismissed(ownerId: string): Promise<Set<string>> {
      const { rows } = await db.query(
        'SELECT a_type, a_id, b_type, b_id FROM dismissed_duplicates WHERE owner_id = $1',
        [ownerId],
      );
      return new Set(
        rows.map((r) =>
          pairKey(
            { type: r.a_type as EntityKind, id: r.a_id as string },
            { type: r.b_type as EntityKind, id: r.b_id as string },
          ),
        ),
      );
    },

    async dismiss(ownerId: string, a: MemberRef, b: MemberRef): Promise<void> {
      const [x, y] = ordered(a, b);
      await db.query(
        `INSERT INTO dismissed_duplicates (owner_id, a_type, a_id, b_type, b_id) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT DO NOTHING`,
        [ownerId, x.type, x.id, y.type, y.id],
      );
    },

    /**
     * Changes when anything of the owner's changes: entities, kaboodles (their additions feed the
     * recommendations), files (the queue's figures) and dismissed pairs. The insights' cache key.
     */
    async generation(ownerId: string): Promise<string> {
      const { rows } = await db.query(
        `SELECT (SELECT COALESCE(max(version), 0) FROM documents WHERE owner_id = $1) AS d,
                (SELECT COALESCE(max(version), 0) FROM inventory_items WHERE owner_id = $1) AS i,
                (SELECT count(*) FROM documents WHERE owner_id = $1) AS dn,
                (SELECT count(*) FROM inventory_items WHERE owner_id = $1) AS inn,
                (SELECT count(*) FROM dismissed_duplicates WHERE owner_id = $1) AS x,
                (SELECT COALESCE(max(version), 0) FROM kaboodles WHERE owner_id = $1) AS k,
                (SELECT count(*) FROM kaboodles WHERE owner_id = $1) AS kn,
                (SELECT max(updated_at) FROM file_facts WHERE owner_id = $1) AS f`,
        [ownerId],
      );
      const r = rows[0] ?? {};
      const files = r.f ? new Date(r.f as Date).getTime() : 0;
      return [r.d, r.i, r.dn, r.inn, r.x, r.k, r.kn, files].map(String).join(':');
    },
  };
}

function toBucket(r: Record<string, unknown>): BucketCount {
  return { bucket: new Date(r.bucket as Date), key: r.key as string, kind: r.kind as EntityKind, n: n(r.n) };
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
