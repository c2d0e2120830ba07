// Two search replicas share one Elasticsearch index through a reindex while writes are in flight,
// and nothing is lost. The replicas are two adapter instances with their own HTTP clients and state
// (as two pods), a third runs the reindex (as the Job), all against an Elasticsearch stand-in
// (support/elasticsearch-stand-in.ts: real HTTP, alias and external-version semantics, named as a
// stand-in: no Elasticsearch runs here). The catalogue is the source of truth: each change bumps an
// entity's version there first (its commit), then reaches one replica or the other (its event), while
// the reindex streams the catalogue into the new index. Afterwards the live index must hold exactly
// the catalogue's versions. As a control, the same run with dual writes off loses changes.
//
// Proven here: the protocol — the lease lets one reindex run, every write after `-next` exists reaches
// the new index, writes racing the swap land, tombstones survive, replicas follow the moved alias —
// with the requests the real client sends. Not proven: Elasticsearch's own behaviour (cluster-state
// propagation of alias changes across nodes, refresh visibility, bulk partial failures under load).
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ConflictError, createLogger } from '@kaboodle/platform';
import { create, DocumentSchema } from '@kaboodle/proto';
import type { ListForIndexResponse } from '@kaboodle/proto';
import { runReindexJob } from '@kaboodle/search';
import { createElasticsearchSearchIndex } from '@kaboodle/search';
import type { ElasticsearchSearchIndex } from '@kaboodle/search';
import { docId } from '@kaboodle/search';
import type { IndexedEntity } from '@kaboodle/search';
import { startElasticsearchStandIn } from './support/elasticsearch-stand-in.ts';
import type { ElasticsearchStandIn } from './support/elasticsearch-stand-in.ts';

const ALIAS = 'kaboodle-entities';
const DIMS = 4;

interface Row {
  version: number;
  deleted: boolean;
}

function entity(id: string, version: number): IndexedEntity {
  return {
    entityType: 'document',
    id,
    ownerId: `owner-${Number(id.slice(1)) % 7}`,
    version,
    title: `Document ${id} v${version}`,
    description: '',
    content: `text of ${id}`,
    category: 'Notes',
    hashtags: [],
    keywords: [],
    url: `/api/documents/${id}/file`,
    imageUrl: '',
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date(),
    vector: Float32Array.from([1, version % 3, 0, 1]),
    passages: [],
  };
}

let standIn: ElasticsearchStandIn | undefined;
const opened: ElasticsearchSearchIndex[] = [];
afterEach(async () => {
  for (const i of opened.splice(0)) await i.close();
  await standIn?.close();
});

async function replica(dualWrite: boolean): Promise<ElasticsearchSearchIndex> {
  const index = createElasticsearchSearchIndex({
    node: standIn!.url,
    indexName: ALIAS,
    dimensions: DIMS,
    model: 'use-lite',
    dualWrite,
    bulk: { retryBaseMs: 1 },
    requestTimeoutMs: 5_000,
  });
  await index.open();
  opened.push(index);
  return index;
}

async function run(dualWrite: boolean) {
  standIn = await startElasticsearchStandIn();
  const catalogue = new Map<string, Row>();
  const [a, b, job] = [await replica(dualWrite), await replica(dualWrite), await replica(dualWrite)];

  // A library indexed before the reindex.
  for (let i = 0; i < 600; i++) catalogue.set(`d${i}`, { version: 1, deleted: false });
  await a.upsert([...catalogue.keys()].map((id) => entity(id, 1)));

  // Changes: committed in the catalogue first, then handled by replica A or B (its consumer).
  let writing = true;
  let changes = 0;
  let nextId = 600;
  const writer = async (index: ElasticsearchSearchIndex, seed: number) => {
    let n = seed;
    while (writing) {
      n = (n * 1103515245 + 12345) % 2 ** 31;
      const fresh = n % 10 === 0;
      const id = fresh ? `d${nextId++}` : `d${n % 600}`;
      const row = catalogue.get(id) ?? { version: 0, deleted: false };
      const next = { version: row.version + 1, deleted: n % 13 === 0 };
      catalogue.set(id, next);
      changes++;
      await sleep(n % 3); // the event is on its way
      if (next.deleted)
        await index.delete([
          { entityType: 'document', id, ownerId: entity(id, 1).ownerId, version: next.version },
        ]);
      else await index.upsert([entity(id, next.version)]);
    }
  };
  const writers = [writer(a, 1), writer(b, 2)];

  // The reindex (the Job), filling the new index from the catalogue as ListForIndex streams it: in
  // pages, each read when it is reached, while the writers keep going. Replica B tries to start its
  // own meanwhile (as every replica did before): the lease refuses it.
  let streamed = 0;
  let second: string;
  const changesBefore = changes;
  try {
    await sleep(30);
    const reindexing = job.reindex(async (target) => {
      await sleep(5);
      const ids = [...catalogue.keys()];
      for (let i = 0; i < ids.length; i += 25) {
        const page = ids.slice(i, i + 25).map((id) => ({ id, row: catalogue.get(id)! }));
        const live = page.filter((p) => !p.row.deleted);
        const gone = page.filter((p) => p.row.deleted);
        await target.upsert(live.map((p) => entity(p.id, p.row.version)));
        await target.delete(
          gone.map((p) => ({
            entityType: 'document' as const,
            id: p.id,
            ownerId: entity(p.id, 1).ownerId,
            version: p.row.version,
          })),
        );
        streamed += page.length;
        await sleep(8);
      }
    });
    await sleep(15);
    second = await b.beginReindex().then(
      async (session) => (await session.abort(), 'started'),
      (err: unknown) => (err instanceof ConflictError ? 'refused' : `failed: ${String(err)}`),
    );
    await reindexing;
    await sleep(80); // writes after the swap
  } finally {
    writing = false;
    await Promise.all(writers);
  }
  const changesDuringReindex = changes - changesBefore;

  // The live index against the catalogue: every entity at its latest version, deletes remembered.
  const docs = standIn.docsOf(ALIAS);
  const lost: string[] = [];
  for (const [id, row] of catalogue) {
    const doc = docs.get(docId({ entityType: 'document', id, ownerId: entity(id, 1).ownerId }));
    if (!doc || doc.version !== row.version || (doc.source.deleted === true) !== row.deleted)
      lost.push(
        `${id}: catalogue v${row.version}${row.deleted ? ' deleted' : ''}, index ${doc ? `v${doc.version}` : 'missing'}`,
      );
  }
  const physical = [...standIn.indices.keys()].filter((k) => k.startsWith(`${ALIAS}-4d-`));
  return {
    lost,
    changes,
    changesDuringReindex,
    streamed,
    entities: catalogue.size,
    second,
    physical,
    liveOf: (i: ElasticsearchSearchIndex) => i.describe().index,
  };
}

describe('two search replicas through a reindex with writes in flight (Elasticsearch stand-in)', () => {
  it('loses nothing: the live index ends at the catalogue’s version of every entity', async () => {
    const r = await run(true);
    console.log(
      `[reindex-replicas] dual writes on: ${r.changes} changes (${r.changesDuringReindex} from the reindex's start on) by 2 replicas, ${r.streamed} entities streamed by the reindex, ${r.entities} entities checked, ${r.lost.length} lost`,
    );
    expect(r.lost).toEqual([]);
    expect(r.second).toBe('refused'); // the lease: one reindex at a time
    expect(r.physical).toHaveLength(1); // the old index dropped, one new index live
    // Both replicas follow the moved alias on their next write or probe.
    await opened[0]!.ping();
    await opened[1]!.ping();
    expect(r.liveOf(opened[0]!)).toBe(r.physical[0]);
    expect(r.liveOf(opened[1]!)).toBe(r.physical[0]);
  });

  it('control: with dual writes off, changes handled during the reindex are lost at the swap', async () => {
    const r = await run(false);
    console.log(`[reindex-replicas] dual writes off: ${r.changes} changes, ${r.lost.length} lost`);
    expect(r.lost.length).toBeGreaterThan(0);
  });
});

describe('the reindex Job (kaboodle search reindex) against the stand-in', () => {
  const catalogue = (ids: string[]) => ({
    async *listForIndex() {
      for (const id of ids) {
        const e = entity(id, 2);
        yield {
          entity: {
            case: 'document' as const,
            value: create(DocumentSchema, {
              id,
              ownerId: e.ownerId,
              version: 2n,
              analysis: { title: e.title, embedding: { values: [...e.vector] } },
            }),
          },
        } as ListForIndexResponse;
      }
    },
    close: () => undefined,
  });

  it('does nothing when the index fits, rebuilds when asked, and waits for a reindex running elsewhere', async () => {
    standIn = await startElasticsearchStandIn();
    const logger = createLogger({ component: 'reindex-job-test', level: 'silent' });
    const job = await replica(true);
    const fits = await runReindexJob({
      index: job,
      catalogue: catalogue([]),
      dimensions: DIMS,
      ifNeeded: true,
      logger,
    });
    expect(fits).toBe('up-to-date');

    const rebuilt = await runReindexJob({
      index: job,
      catalogue: catalogue(['d1', 'd2', 'd3']),
      dimensions: DIMS,
      ifNeeded: false,
      logger,
    });
    expect(rebuilt).toBe('reindexed');
    expect([...standIn.docsOf(ALIAS).keys()].sort()).toHaveLength(3);

    // Another process holds the lease: the Job waits for its swap instead of starting a second.
    const other = await replica(true);
    const running = await other.beginReindex();
    const waiting = runReindexJob({
      index: job,
      catalogue: catalogue([]),
      dimensions: DIMS,
      ifNeeded: false,
      logger,
      pollMs: 50,
    });
    await sleep(200);
    await running.upsert([entity('d9', 1)]);
    await running.commit();
    expect(await waiting).toBe('done-elsewhere');
    expect(job.describe().index).toBe(running.index);
  });
});
