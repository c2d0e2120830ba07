// SearchIndex contract, writes: version guards, tombstones, concurrent upserts, deleteOwner, the live
// list a rebuild prunes, large texts and batches, and vectors of the wrong length.
import { expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { IndexedEntityType } from '@kaboodle/search';
import type { ContractSuite } from './search-index-contract-suite.ts';

export function writesContract(s: ContractSuite): void {
  const { adapterName, dims, owner, vec, entity, q, ids } = s;

  it('ignores an older upsert, keeps a deleted entity deleted, and revives it with a newer version', async () => {
    const o = owner();
    const ref = { entityType: 'document' as const, id: `v-${randomUUID()}`, ownerId: o };
    const v2 = entity(o, { ...ref, version: 2, title: 'walrus version two' });
    const v1 = entity(o, { ...ref, version: 1, title: 'walrus version one' });
    expect(await s.index().entityCount(o)).toBe(0);
    expect(await s.index().upsert([v2])).toEqual({ applied: 1, stale: 0 });
    expect(await s.index().entityCount(o)).toBe(1);
    expect(await s.index().upsert([v1])).toEqual({ applied: 0, stale: 1 });
    expect(await s.index().entityCount(o)).toBe(1);
    expect((await s.index().search(q(o, 'keyword', 'walrus'))).map((h) => h.title)).toEqual([
      'walrus version two',
    ]);
    expect(await s.index().versionOf(ref)).toBe(2);

    expect(await s.index().delete([{ ...ref, version: 1 }])).toEqual({ applied: 0, stale: 1 });
    expect(ids(await s.index().search(q(o, 'keyword', 'walrus')))).toEqual([ref.id]);
    expect(await s.index().entityCount(o)).toBe(1);
    expect(await s.index().delete([{ ...ref, version: 3 }])).toEqual({ applied: 1, stale: 0 });
    expect(await s.index().search(q(o, 'keyword', 'walrus'))).toEqual([]);
    expect(await s.index().versionOf(ref)).toBeUndefined();
    expect((await s.index().stats(o)).entities).toBe(0);
    expect(await s.index().entityCount(o)).toBe(0);

    // the late, older upsert (version 2 arrives after the delete at 3) does not resurrect it
    expect(await s.index().upsert([entity(o, { ...ref, version: 2, title: 'walrus late' })])).toEqual({
      applied: 0,
      stale: 1,
    });
    expect(await s.index().search(q(o, 'keyword', 'walrus'))).toEqual([]);
    expect(await s.index().search(q(o, 'semantic', 'x', { vector: vec({ cleaning: 1 }) }))).toEqual([]);

    // a delete of something never indexed is remembered too
    const ghost = { entityType: 'inventory_item' as const, id: `g-${randomUUID()}`, ownerId: o };
    expect(await s.index().delete([{ ...ghost, version: 4 }])).toEqual({ applied: 1, stale: 0 });
    expect((await s.index().upsert([entity(o, { ...ghost, version: 3, title: 'ghost' })])).applied).toBe(0);
    expect(await s.index().entityCount(o)).toBe(0);

    expect(await s.index().upsert([entity(o, { ...ref, version: 4, title: 'walrus reborn' })])).toEqual({
      applied: 1,
      stale: 0,
    });
    expect((await s.index().search(q(o, 'keyword', 'walrus'))).map((h) => h.title)).toEqual([
      'walrus reborn',
    ]);
    expect(await s.index().versionOf(ref)).toBe(4);
    expect(await s.index().entityCount(o)).toBe(1);
    expect((await s.index().stats(o)).entities).toBe(1);
  });

  it('treats a re-upsert of the same version as stale and never duplicates an entity', async () => {
    const o = owner();
    const e = entity(o, { title: 'idempotent narwhal' });
    expect(await s.index().upsert([e])).toEqual({ applied: 1, stale: 0 });
    expect(await s.index().upsert([e])).toEqual({ applied: 0, stale: 1 });
    // the same entity twice in one batch: the higher version wins, the other is stale
    const e2 = { ...e, version: 2, title: 'idempotent narwhal two' };
    expect(await s.index().upsert([e2, { ...e, version: 1 }, e2])).toEqual({ applied: 1, stale: 2 });
    const hits = await s.index().search(q(o, 'hybrid', 'narwhal', { vector: e.vector }));
    expect(hits.map((h) => h.title)).toEqual(['idempotent narwhal two']);
    expect((await s.index().stats(o)).entities).toBe(1);
  });

  it('coalesces concurrent upserts without losing or mixing any', async () => {
    const o = owner();
    const batches = Array.from({ length: 12 }, (_, b) =>
      Array.from({ length: 25 }, (_, i) => entity(o, { title: `concurrent okapi ${b}-${i}` })),
    );
    const outcomes = await Promise.all(batches.map((batch) => s.index().upsert(batch)));
    for (const out of outcomes) expect(out).toEqual({ applied: 25, stale: 0 });
    expect((await s.index().stats(o)).entities).toBe(300);
    expect(await s.index().search(q(o, 'keyword', 'okapi', { limit: 1000 }))).toHaveLength(100);
  });

  it('deleteOwner removes everything of that owner and nothing of anyone else', async () => {
    const gone = owner();
    const stays = owner();
    await s.index().upsert([entity(gone, { title: 'ibex one' }), entity(gone, { title: 'ibex two' })]);
    await s.index().upsert([entity(stays, { title: 'ibex kept' })]);
    await s.index().deleteOwner(gone);
    expect(await s.index().search(q(gone, 'keyword', 'ibex'))).toEqual([]);
    expect((await s.index().stats(gone)).entities).toBe(0);
    expect((await s.index().search(q(stays, 'keyword', 'ibex'))).map((h) => h.title)).toEqual(['ibex kept']);
  });

  it('lists live entities changed before a time, in batches, with their versions (what a rebuild prunes)', async () => {
    const a = owner();
    const b = owner();
    const recent = new Date('2026-06-01T00:00:00Z');
    const kept = [entity(a, { version: 3 }), entity(a, { entityType: 'inventory_item' }), entity(b)];
    const deleted = entity(a);
    const fresh = entity(b, { updatedAt: recent });
    await s.index().upsert([...kept, deleted, fresh]);
    await s.index().delete([{ entityType: 'document', id: deleted.id, ownerId: a, version: 2 }]);
    const listed = [];
    let batches = 0;
    for await (const refs of s.index().listLive({
      updatedBefore: new Date('2026-03-01T00:00:00Z'),
      batchSize: 2,
    })) {
      batches += 1;
      expect(refs.length).toBeLessThanOrEqual(2);
      listed.push(...refs.filter((r) => r.ownerId === a || r.ownerId === b));
    }
    expect(batches).toBeGreaterThanOrEqual(2);
    const key = (r: { ownerId: string; entityType: string; id: string }) =>
      `${r.ownerId}/${r.entityType}/${r.id}`;
    expect(listed.map(key).sort()).toEqual(kept.map(key).sort());
    expect(listed.find((r) => r.id === kept[0]!.id)?.version).toBe(3);
  });

  it('indexes very long text without error and keeps the displayed content short', async () => {
    const o = owner();
    const para = 'The pangolin archive contains many repeated sentences about logistics and weather. ';
    const content = `Opening mention of platypus. ${para.repeat(12_000)}`; // ~1 MB
    const e = entity(o, { title: 'Huge document', content });
    expect((await s.index().upsert([e])).applied).toBe(1);
    const hits = await s.index().search(q(o, 'keyword', 'platypus'));
    expect(ids(hits)).toEqual([e.id]);
    expect(hits[0]!.content.length).toBeGreaterThan(0);
    expect(hits[0]!.content.length).toBeLessThanOrEqual(1000);
  });

  it('takes a 1,000-item batch in one call', async () => {
    const o = owner();
    const types: IndexedEntityType[] = ['document', 'inventory_item'];
    const batch = Array.from({ length: 1000 }, (_, i) =>
      entity(o, {
        entityType: types[i % 2]!,
        title: `batch item ${i} ${i === 777 ? 'capybara' : 'plain'}`,
        vector: vec(i % 3 === 0 ? { garden: 1 } : { tax: 1, garden: (i % 7) / 7 }),
      }),
    );
    const started = performance.now();
    expect(await s.index().upsert(batch)).toEqual({ applied: 1000, stale: 0 });
    const ms = performance.now() - started;
    process.stderr.write(`[contract:search-index:${adapterName}] 1,000-item upsert ${ms.toFixed(0)} ms\n`);
    expect((await s.index().stats(o)).entities).toBe(1000);
    expect(ids(await s.index().search(q(o, 'keyword', 'capybara')))).toEqual([batch[777]!.id]);
    expect(
      await s.index().search(q(o, 'semantic', 'x', { vector: vec({ garden: 1 }), limit: 50 })),
    ).toHaveLength(50);
    const total = await s.index().stats();
    expect(total.entities).toBeGreaterThanOrEqual(1000);
    expect(total.sizeBytes).toBeGreaterThan(0);
  });

  it('rejects a vector of the wrong length', async () => {
    const o = owner();
    await expect(
      s.index().upsert([entity(o, { vector: new Float32Array(dims + 1).fill(0.1) })]),
    ).rejects.toThrow();
    await expect(
      s.index().search(q(o, 'semantic', 'x', { vector: new Float32Array(Math.max(1, dims - 1)).fill(0.1) })),
    ).rejects.toThrow();
  });
}
