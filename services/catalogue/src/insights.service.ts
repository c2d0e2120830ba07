// Insights across documents and inventory: the observatory's figures, trends, recommendations
// ("you may also want": neighbours of what the user opened or added lately, minus what is in view),
// and the near-duplicate review (vector neighbours at cosine ≥ 0.95 plus byte-identical files), with
// dismiss and merge. Vector work is the search service's (LibrarySearch); without it those parts
// are empty and say so (`available: false`).
import os from 'node:os';
import { InputError, NotFoundError } from '@kaboodle/platform';
import type { Database, Logger } from '@kaboodle/platform';
import type { Outbox } from '@kaboodle/platform';
import type { ActivityRepository } from './activity.repository.ts';
import type { CatalogueService } from './catalogue.service.ts';
import type { InsightsRepository, LibraryCounts, Period } from './insights.repository.ts';
import { pairKey } from './insights.repository.ts';
import type { KaboodleRepository, MemberEntity, MemberRef } from './kaboodle.repository.ts';
import type { KaboodleService } from './kaboodle.service.ts';
import type { LibrarySearchHandle } from './library-search.port.ts';
import { bucketWindow, buildTrends } from './trends.ts';
import type { Trends } from './trends.ts';

/** Cosine similarity at or above which two entities are near-duplicates (as the search service's). */
export const DUPLICATE_SIMILARITY = 0.95;
/** How many recently changed entities the duplicate scan looks around. */
const DUPLICATE_SCAN = 150;
const CACHE_MS = 60_000;
/** How long the overview waits for a first near-duplicate scan before answering without it. */
const OVERVIEW_SCAN_WAIT_MS = 1_500;
const SCAN_CONCURRENCY = 8;
const RECENT_SEEDS = 6;
const NEIGHBOURS_PER_SEED = 8;

export interface Recommendation {
  entity: MemberEntity;
  score: number;
  because: { type: MemberRef['type']; id: string; title: string };
}

interface RawPair {
  a: MemberRef;
  b: MemberRef;
  similarity: number;
  reason: 'identical_file' | 'similar_content';
}

export interface DuplicatePair {
  a: MemberEntity;
  b: MemberEntity;
  similarity: number;
  reason: 'identical_file' | 'similar_content';
}

const key = (r: MemberRef) => `${r.type}:${r.id}`;

async function inPool<T>(items: readonly T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

export interface InsightsServiceDeps {
  db: Database;
  insights: InsightsRepository;
  kaboodleRows: KaboodleRepository;
  kaboodles: KaboodleService;
  catalogue: CatalogueService;
  activity: ActivityRepository;
  outbox: Outbox;
  search: LibrarySearchHandle;
  logger: Logger;
  now?: () => Date;
}

export function createInsightsService(deps: InsightsServiceDeps) {
  const { insights, kaboodleRows } = deps;
  const now = deps.now ?? (() => new Date());
  /**
   * Answers that only change when the owner's library does (trends, the duplicate scan, the index's
   * size), kept per owner and key until the library's generation moves or CACHE_MS passes.
   */
  const cache = new Map<string, { generation: string; at: number; value: unknown }>();
  async function remembered<T>(
    ownerId: string,
    key: string,
    generation: string,
    compute: () => Promise<T>,
    ttlMs = CACHE_MS,
  ): Promise<T> {
    const k = `${ownerId}\u0000${key}`;
    const hit = cache.get(k);
    if (hit && hit.generation === generation && Date.now() - hit.at < ttlMs) return hit.value as T;
    const value = await compute();
    if (cache.size > 5000) cache.clear();
    cache.set(k, { generation, at: Date.now(), value });
    return value;
  }
  const forget = (ownerId: string) => {
    for (const k of cache.keys()) if (k.startsWith(`${ownerId}\u0000`)) cache.delete(k);
  };

  async function trends(
    ownerId: string,
    period: Period,
    periods: number,
    generation?: string,
  ): Promise<Trends> {
    const window = bucketWindow(now(), period, periods);
    const since = window[0]!;
    // a new bucket starting is a change too
    const key = `trends:${period}:${periods}:${since.toISOString()}`;
    return remembered(ownerId, key, generation ?? (await insights.generation(ownerId)), async () => {
      const [tags, cats] = await Promise.all([
        insights.hashtagCounts(ownerId, period, since),
        insights.categoryCounts(ownerId, period, since),
      ]);
      return buildTrends(period, window, tags, cats);
    });
  }

  async function recommendations(
    ownerId: string,
    context: readonly MemberRef[],
    exclude: readonly MemberRef[],
    limit: number,
  ): Promise<{ available: boolean; items: Recommendation[] }> {
    const search = deps.search();
    if (!search) return { available: false, items: [] };
    const recent = await insights.recentRefs(ownerId, RECENT_SEEDS);
    const seeds = [
      ...context.map((r) => ({ ...r, weight: 1 })),
      ...recent.filter((r) => !context.some((c) => key(c) === key(r))).map((r) => ({ ...r, weight: 0.8 })),
    ].slice(0, 12);
    const skip = new Set([...context, ...exclude].map(key));
    const scored = new Map<string, { ref: MemberRef; score: number; best: number; because: MemberRef }>();
    await inPool(seeds, SCAN_CONCURRENCY, async (seed) => {
      const hits = await search.related(ownerId, seed, NEIGHBOURS_PER_SEED).catch(() => []);
      for (const h of hits) {
        if (skip.has(key(h)) || h.score <= 0) continue;
        const s = h.score * seed.weight;
        const seen = scored.get(key(h));
        if (!seen) scored.set(key(h), { ref: h, score: s, best: s, because: seed });
        else {
          seen.score += s * 0.25; // near several seeds: a little higher, never above the best by much
          if (s > seen.best) Object.assign(seen, { best: s, because: seed });
        }
      }
    });
    const ranked = [...scored.values()].sort((a, b) => b.score - a.score).slice(0, limit * 2);
    const entities = await kaboodleRows.entities(ownerId, [...ranked.map((r) => r.ref), ...seeds]);
    const items = ranked.flatMap((r) => {
      const entity = entities.get(key(r.ref));
      const because = entities.get(key(r.because));
      if (!entity || !because) return [];
      return [
        {
          entity,
          score: Math.min(1, Math.round(r.best * 1000) / 1000),
          because: { type: because.type, id: because.id, title: because.title },
        },
      ];
    });
    return { available: true, items: items.slice(0, limit) };
  }

  /**
   * Near-duplicates found so far, per owner: the neighbours of each entity scanned, at the version it
   * was scanned at. A rescan only looks around entities that are new or changed since (usually a
   * handful), dropping their old pairs first; a deleted entity's pairs fall away when shown.
   */
  const scans = new Map<string, { scanned: Map<string, number>; similar: Map<string, RawPair> }>();
  const running = new Map<string, Promise<DuplicatePair[]>>();

  async function scanDuplicates(ownerId: string): Promise<DuplicatePair[]> {
    const search = deps.search();
    let state = scans.get(ownerId);
    if (!state) {
      if (scans.size > 1000) scans.clear();
      state = { scanned: new Map(), similar: new Map() };
      scans.set(ownerId, state);
    }
    if (search) {
      const around = await insights.recentlyChanged(ownerId, DUPLICATE_SCAN);
      const due = around.filter((r) => state.scanned.get(key(r)) !== r.version);
      for (const r of due) {
        for (const [k, p] of state.similar)
          if (key(p.a) === key(r) || key(p.b) === key(r)) state.similar.delete(k);
      }
      await inPool(due, SCAN_CONCURRENCY, async (ref) => {
        const hits = await search.related(ownerId, ref, 3, DUPLICATE_SIMILARITY).catch(() => null);
        if (hits === null) return; // not answered: scanned again next time
        state.scanned.set(key(ref), ref.version);
        for (const h of hits) {
          if (h.score < DUPLICATE_SIMILARITY || key(h) === key(ref)) continue;
          const k = pairKey(ref, h);
          if (!state.similar.has(k))
            state.similar.set(k, {
              a: { type: ref.type, id: ref.id },
              b: { type: h.type, id: h.id },
              similarity: h.score,
              reason: 'similar_content',
            });
        }
      });
    }
    const pairs = new Map(state.similar);
    for (const [a, b] of await insights.identicalPairs(ownerId, 200)) {
      pairs.set(pairKey(a, b), { a, b, similarity: 1, reason: 'identical_file' });
    }
    const dismissed = await insights.dismissed(ownerId);
    const kept = [...pairs.entries()].filter(([k]) => !dismissed.has(k)).map(([, p]) => p);
    const entities = await kaboodleRows.entities(
      ownerId,
      kept.flatMap((p) => [p.a, p.b]),
    );
    return kept
      .flatMap((p) => {
        const a = entities.get(key(p.a));
        const b = entities.get(key(p.b));
        // the older one first: usually the one to keep
        if (!a || !b) return [];
        const [x, y] = a.created_at <= b.created_at ? [a, b] : [b, a];
        return [{ a: x, b: y, similarity: Math.round(p.similarity * 1000) / 1000, reason: p.reason }];
      })
      .sort((x, y) => y.similarity - x.similarity || x.a.title.localeCompare(y.a.title));
  }

  /** One scan per owner at a time; callers asking meanwhile share it. */
  function scanOnce(ownerId: string, generation: string): Promise<DuplicatePair[]> {
    const inFlight = running.get(ownerId);
    if (inFlight) return inFlight;
    const scan = remembered(ownerId, 'duplicates', generation, () => scanDuplicates(ownerId)).finally(() =>
      running.delete(ownerId),
    );
    running.set(ownerId, scan);
    return scan;
  }

  /** The review list: as of now. */
  async function duplicates(
    ownerId: string,
    generation?: string,
  ): Promise<{ available: boolean; pairs: DuplicatePair[] }> {
    const pairs = await scanOnce(ownerId, generation ?? (await insights.generation(ownerId)));
    return { available: deps.search() !== undefined, pairs };
  }

  /**
   * The overview's part: the last list at once while a rescan runs behind it (the observatory must not
   * wait for a first scan of a large library: at most OVERVIEW_SCAN_WAIT_MS, then what there is).
   */
  async function duplicatesSoon(
    ownerId: string,
    generation: string,
  ): Promise<{ available: boolean; pairs: DuplicatePair[] }> {
    const last = cache.get(`${ownerId}\u0000duplicates`)?.value as DuplicatePair[] | undefined;
    const scan = scanOnce(ownerId, generation);
    scan.catch((err: unknown) => deps.logger.warn({ err }, 'scanning for near-duplicates failed'));
    const pairs = await Promise.race([
      scan,
      new Promise<DuplicatePair[] | undefined>((resolve) =>
        setTimeout(() => resolve(undefined), last ? 0 : OVERVIEW_SCAN_WAIT_MS).unref(),
      ),
    ]);
    return { available: deps.search() !== undefined, pairs: pairs ?? last ?? [] };
  }

  function diagnostics(lib: LibraryCounts, index: { entities: number; sizeBytes: number } | null) {
    const ended = lib.files_completed + lib.files_failed + lib.files_waiting;
    const mem = process.memoryUsage();
    const total = os.totalmem();
    return {
      processing: {
        processed_share: ended === 0 ? null : Math.round((lib.files_completed / ended) * 1000) / 1000,
        files_waiting: lib.files_waiting,
        files_completed: lib.files_completed,
        files_failed: lib.files_failed,
        pipeline_lag_ms: lib.oldest_waiting_ms,
        recent_processing_ms: lib.recent_processing_ms,
      },
      index: index ? { entities: index.entities, size_bytes: index.sizeBytes } : null,
      memory: {
        rss_bytes: mem.rss,
        heap_used_bytes: mem.heapUsed,
        system_total_bytes: total,
        share: Math.round((mem.rss / total) * 1000) / 1000,
      },
    };
  }

  return {
    trends,
    recommendations,
    duplicates,

    async overview(
      ownerId: string,
      opts: { period: Period; periods: number; context: MemberRef[]; exclude: MemberRef[] },
    ) {
      const search = deps.search();
      const timing: Record<string, number> = {};
      const timed = async <T>(name: string, work: Promise<T>): Promise<T> => {
        const t0 = performance.now();
        try {
          return await work;
        } finally {
          timing[name] = performance.now() - t0;
        }
      };
      const generation = await timed('generation', insights.generation(ownerId));
      const [lib, t, recs, dups, index] = await Promise.all([
        // the pipeline's ages (oldest waiting file) move with the clock: at most CACHE_MS old
        timed(
          'library',
          remembered(ownerId, 'library', generation, () => insights.library(ownerId)),
        ),
        timed('trends', trends(ownerId, opts.period, opts.periods, generation)),
        timed(
          'recommendations',
          remembered(
            ownerId,
            `recommendations:${JSON.stringify([opts.context, opts.exclude])}`,
            generation,
            () => recommendations(ownerId, opts.context, opts.exclude, 6),
          ),
        ),
        timed('duplicates', duplicatesSoon(ownerId, generation)),
        timed(
          'index',
          search
            ? remembered(ownerId, 'index', generation, () => search.indexStats(ownerId)).catch(() => null)
            : Promise.resolve(null),
        ),
      ]);
      return {
        library: lib,
        trends: t,
        recommendations: recs,
        duplicates: dups,
        diagnostics: diagnostics(lib, index),
        timing,
      };
    },

    async dismiss(ownerId: string, a: MemberRef, b: MemberRef): Promise<void> {
      forget(ownerId);
      if (key(a) === key(b)) throw new InputError('Choose two different documents or items');
      const found = await kaboodleRows.entities(ownerId, [a, b]);
      if (!found.has(key(a)) || !found.has(key(b))) throw new NotFoundError('Document or item not found');
      await insights.dismiss(ownerId, a, b);
    },

    /**
     * Keep one, move the other's kaboodle memberships to it, delete the other (one transaction).
     * Returns the removed one's source file id, so the caller can delete the file too when asked.
     */
    async merge(
      ownerId: string,
      keep: MemberRef,
      remove: MemberRef,
    ): Promise<{ removedFileId: string | null }> {
      if (key(keep) === key(remove)) throw new InputError('Choose two different documents or items');
      if (keep.type !== remove.type)
        throw new InputError('Only two documents or two inventory items can be merged');
      return deps.db.transaction(async (tx) => {
        const found = await kaboodleRows.entities(ownerId, [keep, remove], tx);
        const kept = found.get(key(keep));
        const gone = found.get(key(remove));
        if (!kept || !gone) throw new NotFoundError('Document or item not found');
        const moved = await deps.kaboodles.membershipsMoved(tx, ownerId, remove, keep);
        const removed = await deps.catalogue.removeEntity(tx, remove.type, ownerId, remove.id);
        if (!removed) throw new NotFoundError('Document or item not found');
        await deps.activity.record(tx, {
          ownerId,
          type: 'deleted',
          message: `Merged "${gone.title}" into "${kept.title}"`,
          fileId: removed.row.source_file_id,
          fileName: removed.row.file_name,
          entityType: keep.type,
          entityId: keep.id,
        });
        await deps.outbox.enqueue(tx, [...moved, ...removed.events]);
        forget(ownerId);
        return { removedFileId: removed.row.source_file_id };
      });
    },
  };
}

export type InsightsService = ReturnType<typeof createInsightsService>;
