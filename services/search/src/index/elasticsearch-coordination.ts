// How several search replicas share one Elasticsearch index through a reindex. A reindex fills a new
// physical index that a second alias, `<alias>-next`, points at; every replica, on every write, asks
// Elasticsearch where both aliases point *after* the writes it carries were received (so after their
// catalogue commits) and writes to the next index first, then the live one. The reindex reads the
// catalogue only after `-next` exists, so a change is either read by it or written by a replica that
// saw `-next`: nothing is lost, whichever replica handles it. A lease document makes the reindex run
// once at a time across replicas and Jobs; it expires if its holder dies.
import { hostname } from 'node:os';
import type { Client } from '@elastic/elasticsearch';
import { ConflictError } from '@kaboodle/platform';
import { esStatus } from './elasticsearch-bulk.ts';

export const nextAliasOf = (alias: string): string => `${alias}-next`;
export const leaseIndexOf = (alias: string): string => `${alias}-lease`;

export interface AliasTargets {
  /** The physical index the live alias points at (the oldest, if several). */
  live: string | undefined;
  /** The physical index a reindex is filling, when one is under way. */
  next: string | undefined;
}

/** One request: where `<alias>` and `<alias>-next` point now. */
export async function readAliasTargets(client: Client, alias: string): Promise<AliasTargets> {
  const next = nextAliasOf(alias);
  // A wildcard answers 200 (possibly empty) where a list with a missing name answers 404.
  const r = await client.indices.getAlias({ name: `${alias}*` });
  const live: string[] = [];
  const pending: string[] = [];
  for (const [index, entry] of Object.entries(r)) {
    const names = Object.keys((entry as { aliases?: Record<string, unknown> }).aliases ?? {});
    if (names.includes(alias)) live.push(index);
    if (names.includes(next)) pending.push(index);
  }
  return { live: live.sort()[0], next: pending.sort()[0] };
}

export interface Lease {
  readonly holder: string;
  /** Keep it (call well within ttl); throws ConflictError if another holder took it over. */
  renew(): Promise<void>;
  release(): Promise<void>;
}

interface LeaseDocument {
  holder: string;
  acquired_at: string;
  expires_at: string;
}

/**
 * Take the reindex lease, or throw ConflictError naming who holds it. An expired lease (its holder
 * stopped renewing: died) is taken over; every change is conditional on the document's sequence number.
 */
export async function acquireReindexLease(
  client: Client,
  alias: string,
  options: { ttlMs?: number; holder?: string; now?: () => number } = {},
): Promise<Lease> {
  const index = leaseIndexOf(alias);
  const ttlMs = options.ttlMs ?? 120_000;
  const now = options.now ?? Date.now;
  const holder = options.holder ?? `${hostname()}/${process.pid}`;
  const body = (): LeaseDocument => ({
    holder,
    acquired_at: new Date(now()).toISOString(),
    expires_at: new Date(now() + ttlMs).toISOString(),
  });
  let seq: { if_seq_no: number; if_primary_term: number };
  try {
    const r = await client.create({ index, id: 'reindex', document: body(), refresh: true });
    seq = { if_seq_no: r._seq_no!, if_primary_term: r._primary_term! };
  } catch (err) {
    if (esStatus(err) !== 409) throw err;
    const current = await client.get<LeaseDocument>({ index, id: 'reindex' });
    const held = current._source!;
    if (Date.parse(held.expires_at) > now())
      throw new ConflictError(
        `a reindex of ${alias} is under way (${held.holder}, since ${held.acquired_at})`,
      );
    // Expired: take it over, unless someone else just did.
    try {
      const r = await client.index({
        index,
        id: 'reindex',
        document: body(),
        if_seq_no: current._seq_no!,
        if_primary_term: current._primary_term!,
        refresh: true,
      });
      seq = { if_seq_no: r._seq_no!, if_primary_term: r._primary_term! };
    } catch (takeover) {
      if (esStatus(takeover) === 409)
        throw new ConflictError(`a reindex of ${alias} was just taken over by another process`);
      throw takeover;
    }
  }
  return {
    holder,
    async renew() {
      try {
        const r = await client.index({ index, id: 'reindex', document: body(), ...seq, refresh: true });
        seq = { if_seq_no: r._seq_no!, if_primary_term: r._primary_term! };
      } catch (err) {
        if (esStatus(err) === 409) throw new ConflictError(`the reindex lease of ${alias} was taken over`);
        throw err;
      }
    },
    async release() {
      await client.delete({ index, id: 'reindex', ...seq, refresh: true }).catch((err: unknown) => {
        if (esStatus(err) !== 404 && esStatus(err) !== 409) throw err;
      });
    },
  };
}

/** Whether a reindex lease is held now (not expired): who, or undefined. */
export async function reindexLeaseHolder(client: Client, alias: string): Promise<string | undefined> {
  try {
    const r = await client.get<LeaseDocument>({ index: leaseIndexOf(alias), id: 'reindex' });
    const held = r._source;
    return held && Date.parse(held.expires_at) > Date.now() ? held.holder : undefined;
  } catch (err) {
    if (esStatus(err) === 404) return undefined;
    throw err;
  }
}
