// Upkeep of the embedded index's table: the dimension check and the scalar, full-text and vector
// indices a table gets when opened, and the maintenance the writer runs now and then (the ANN index
// built once the table is big enough and rebuilt as it grows, tombstones past their TTL dropped,
// compaction, index refresh, old versions pruned).
import * as lancedb from '@lancedb/lancedb';
import type { Table } from '@lancedb/lancedb';
import type { Logger } from '@kaboodle/platform';

export type AnnKind = 'ivf-flat' | 'hnsw-sq';

/** ANN search parameters (the defaults already applied). */
export type AnnSearchSettings = {
  nprobes: number;
  m: number;
  efConstruction: number;
  ef: number;
  refineFactor: number;
};

/** Refuses a table whose vectors have another length than the embedder's. */
export async function checkVectorSize(table: Table, dims: number, what: string): Promise<void> {
  const existing = await table.schema();
  const vf = existing.fields.find((f) => f.name === 'vector');
  const size = (vf?.type as { listSize?: number } | undefined)?.listSize;
  if (size !== dims) {
    throw new Error(
      `the index ${what} holds ${size}-dimension vectors but the embedder gives ${dims}: rebuild it (delete the folder and re-index from the catalogue)`,
    );
  }
}

/** Creates the scalar and full-text indices the table lacks; answers whether it has a vector index. */
export async function ensureIndices(table: Table): Promise<boolean> {
  const indices = await table.listIndices();
  const has = (col: string) => indices.some((i) => i.columns.includes(col));
  // Scalar indices make the owner prefilter and the version lookups by key cheap.
  if (!has('key')) await table.createIndex('key', { config: lancedb.Index.btree() });
  if (!has('owner_id')) await table.createIndex('owner_id', { config: lancedb.Index.btree() });
  // Every query filters `deleted = false`: without an index that predicate scans the column
  // (~2.5 ms of a 100k BM25 query here); a bitmap makes it free. Types are filtered often too.
  if (!has('deleted')) await table.createIndex('deleted', { config: lancedb.Index.bitmap() });
  if (!has('entity_type')) await table.createIndex('entity_type', { config: lancedb.Index.bitmap() });
  // BM25 over the whole search text and over the content's opening (the lead, LEAD_BOOST);
  // a table made before the lead was scored gets its index here, from the rows it holds.
  for (const column of ['search_text', 'content_head']) {
    if (has(column)) continue;
    await table.createIndex(column, {
      config: lancedb.Index.fts({
        baseTokenizer: 'simple',
        lowercase: true,
        stem: true,
        removeStopWords: true,
        asciiFolding: true,
        withPosition: false,
        language: 'English',
      }),
    });
  }
  return has('vector');
}

export interface MaintenanceOptions {
  table(): Table;
  annMinRows: number;
  annKind: AnnKind;
  ann: AnnSearchSettings;
  /** IVF partitions; unset: √rows for IVF_FLAT, 1 for HNSW-SQ. */
  numPartitions: number | undefined;
  tombstoneTtlMs: number;
  retainVersionsMs: number;
  optimizeEveryWrites: number;
  optimizeEveryRows: number;
  log: Logger | undefined;
}

export interface Maintenance {
  /** Whether the table has an ANN index on its vectors (queries without one scan exactly). */
  annIndexed(): boolean;
  /** Records the vector index state of a freshly opened table. */
  opened(hasAnnIndex: boolean): Promise<void>;
  /** Counts a write (and the rows it wrote) towards the next maintenance. */
  noteWrite(rows: number): void;
  /** Any write since the last maintenance (the timer runs it then). */
  dirty(): boolean;
  /** Enough writes or rows since the last maintenance to run it after this batch. */
  due(): boolean;
  /** The index settings for a table of `rows` live rows (what the bench prints). */
  annSettings(rows: number): { kind: AnnKind; numPartitions: number } & AnnSearchSettings;
  /** Compaction, index refresh (new rows join the FTS/ANN indices), old versions pruned. */
  maintain(): Promise<void>;
}

export function createMaintenance(options: MaintenanceOptions): Maintenance {
  const { annKind, ann, log } = options;
  let annIndexed = false;
  /** Live rows when the ANN index was (re)built: IVF partitions are retrained once the table is 4× that. */
  let annBuiltRows = 0;
  let writesSinceOptimize = 0;
  let rowsSinceOptimize = 0;

  function annSettings(rows: number) {
    const numPartitions =
      options.numPartitions ??
      (annKind === 'hnsw-sq' ? 1 : Math.max(1, Math.min(4096, Math.round(Math.sqrt(rows)))));
    return { kind: annKind, numPartitions, ...ann };
  }

  async function maintain(): Promise<void> {
    writesSinceOptimize = 0;
    rowsSinceOptimize = 0;
    const tb = options.table();
    const live = await tb.countRows('deleted = false');
    // Built once the table is big enough; rebuilt when it has grown 4×, because new rows only join
    // the existing partitions (or graph) and the partitioning drifts from the data.
    if (
      (!annIndexed && live >= options.annMinRows) ||
      (annIndexed && annBuiltRows > 0 && live >= annBuiltRows * 4)
    ) {
      const started = performance.now();
      const settings = annSettings(live);
      await tb.createIndex('vector', {
        config:
          annKind === 'hnsw-sq'
            ? lancedb.Index.hnswSq({
                distanceType: 'cosine',
                m: settings.m,
                efConstruction: settings.efConstruction,
                numPartitions: settings.numPartitions,
              })
            : lancedb.Index.ivfFlat({ distanceType: 'cosine', numPartitions: settings.numPartitions }),
        replace: true,
      });
      annIndexed = true;
      annBuiltRows = live;
      log?.info(
        { rows: live, ms: Math.round(performance.now() - started), ...settings },
        'search index: built the vector index',
      );
    }
    await tb.delete(`deleted = true AND updated_at < ${Math.trunc(Date.now() - options.tombstoneTtlMs)}`);
    await tb.optimize({ cleanupOlderThan: new Date(Date.now() - options.retainVersionsMs) });
  }

  return {
    annIndexed: () => annIndexed,
    async opened(hasAnnIndex) {
      annIndexed = hasAnnIndex;
      if (annIndexed) annBuiltRows = await options.table().countRows('deleted = false');
    },
    noteWrite(rows) {
      writesSinceOptimize += 1;
      rowsSinceOptimize += rows;
    },
    dirty: () => writesSinceOptimize > 0,
    due: () =>
      writesSinceOptimize >= options.optimizeEveryWrites || rowsSinceOptimize >= options.optimizeEveryRows,
    annSettings,
    maintain,
  };
}
