// A reindex of the Elasticsearch search index, run by one process at a time (the lease): a new
// physical index is created and named by `<alias>-next`, so every replica writes each change to it
// too (elasticsearch-coordination.ts); the caller fills it (from the catalogue); commit carries the
// old index's tombstones over and moves both aliases in one atomic action.
import type { Client } from '@elastic/elasticsearch';
import { wrapError } from '@kaboodle/platform';
import type { Logger } from '@kaboodle/platform';
import { bulkIndex, esStatus } from './elasticsearch-bulk.ts';
import type { BulkOperation, BulkOptions } from './elasticsearch-bulk.ts';
import { acquireReindexLease, nextAliasOf, readAliasTargets } from './elasticsearch-coordination.ts';
import type { EntityRef, IndexedEntity, UpsertOutcome } from './search-index.port.ts';

/** A new physical index being filled beside the live one, which every replica also writes to. */
export interface ElasticsearchReindex {
  readonly index: string;
  upsert(entities: IndexedEntity[]): Promise<UpsertOutcome>;
  delete(refs: EntityRef[]): Promise<UpsertOutcome>;
  /** Refresh, carry the old index's tombstones over, swap the aliases atomically, drop the old index. */
  commit(): Promise<void>;
  /** Drop the new index; the live alias never moved. */
  abort(): Promise<void>;
}

export interface ReindexDeps {
  client: Client;
  alias: string;
  /** Creates the new physical index (refresh off, no alias) and returns its name. */
  createIndex(): Promise<string>;
  entityOps(entities: IndexedEntity[]): BulkOperation[];
  tombstoneOps(refs: EntityRef[]): BulkOperation[];
  bulk: BulkOptions;
  refreshInterval: string;
  keepOldIndices: boolean;
  leaseTtlMs: number;
  log: Logger | undefined;
  /** Told once the aliases moved, with the index now live. */
  onCommitted(index: string): void;
}

export async function beginReindex(deps: ReindexDeps): Promise<ElasticsearchReindex> {
  const { client, alias, log } = deps;
  const next = nextAliasOf(alias);
  const where = `elasticsearch alias ${alias}`;
  // Throws ConflictError when another process holds it: the reindex runs once.
  const lease = await acquireReindexLease(client, alias, { ttlMs: deps.leaseTtlMs });
  let target: string;
  try {
    const leftover = (await readAliasTargets(client, alias)).next;
    if (leftover) {
      // A reindex whose holder died: its half-filled index goes, replicas stop writing to it.
      log?.warn({ alias, index: leftover }, 'elasticsearch: dropping the index of an abandoned reindex');
      await client.indices.updateAliases({ actions: [{ remove: { index: leftover, alias: next } }] });
      await client.indices.delete({ index: leftover }).catch(() => undefined);
    }
    target = await deps.createIndex();
    // From here on every replica's writes reach the new index too; filling starts only after.
    await client.indices.updateAliases({ actions: [{ add: { index: target, alias: next } }] });
  } catch (err) {
    await lease.release().catch(() => undefined);
    throw wrapError(`starting a reindex of ${where}`, err);
  }
  log?.info({ alias, to: target, holder: lease.holder }, 'elasticsearch: reindex started');
  const renewal = setInterval(
    () => {
      lease
        .renew()
        .catch((err: unknown) => log?.error({ err }, 'elasticsearch: renewing the reindex lease failed'));
    },
    Math.max(1000, Math.floor(deps.leaseTtlMs / 3)),
  );
  renewal.unref();
  let finished = false;
  const assertActive = (): void => {
    if (finished) throw new Error(`the reindex into ${target} has already finished`);
  };
  const write = async (ops: BulkOperation[], what: string): Promise<UpsertOutcome> => {
    try {
      const r = await bulkIndex(client, target, ops, { ...deps.bulk, refresh: false });
      return { applied: r.applied, stale: r.stale };
    } catch (err) {
      throw wrapError(`${what} in ${target}`, err);
    }
  };
  const end = async () => {
    finished = true;
    clearInterval(renewal);
    await lease
      .release()
      .catch((err: unknown) => log?.warn({ err }, 'elasticsearch: releasing the reindex lease failed'));
  };

  return {
    index: target,
    async upsert(entities) {
      assertActive();
      return entities.length === 0
        ? { applied: 0, stale: 0 }
        : write(deps.entityOps(entities), `indexing ${entities.length} entities`);
    },
    async delete(refs) {
      assertActive();
      return refs.length === 0
        ? { applied: 0, stale: 0 }
        : write(deps.tombstoneOps(refs), `deleting ${refs.length} entities`);
    },
    async commit() {
      assertActive();
      let old: string | undefined;
      try {
        await lease.renew();
        old = (await readAliasTargets(client, alias)).live;
        await client.indices.putSettings({
          index: target,
          settings: { refresh_interval: deps.refreshInterval },
        });
        await client.indices.refresh({ index: target });
        if (old) {
          // Deletes remembered by the old index stay remembered: a late, older upsert must not
          // resurrect an entity deleted before or during the rebuild.
          await client.reindex({
            source: { index: old, query: { term: { deleted: true } } },
            dest: { index: target, version_type: 'external' },
            conflicts: 'proceed',
            refresh: true,
            wait_for_completion: true,
          });
        }
        // One atomic action: readers move to the new index, writers stop writing twice.
        await client.indices.updateAliases({
          actions: [
            ...(old ? [{ remove: { index: old, alias, must_exist: true } }] : []),
            { add: { index: target, alias } },
            { remove: { index: target, alias: next } },
          ],
        });
      } catch (err) {
        throw wrapError(`switching ${where} from ${old ?? '(none)'} to ${target}`, err);
      }
      await end();
      deps.onCommitted(target);
      log?.info({ alias, from: old, to: target }, 'elasticsearch: reindex committed, alias swapped');
      if (old && !deps.keepOldIndices) {
        await client.indices.delete({ index: old }).catch((err: unknown) => {
          log?.warn({ err, index: old }, 'elasticsearch: could not delete the previous index');
        });
      }
    },
    async abort() {
      if (finished) return;
      await client.indices
        .updateAliases({ actions: [{ remove: { index: target, alias: next } }] })
        .catch(() => undefined);
      await client.indices.delete({ index: target }).catch((err: unknown) => {
        if (esStatus(err) !== 404) throw wrapError(`dropping the aborted index ${target}`, err);
      });
      await end();
    },
  };
}
