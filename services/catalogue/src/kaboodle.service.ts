// Kaboodles' use cases: every change runs in one transaction with its activity line and the
// catalogue.changed event that carries the whole membership (outbox). A smart kaboodle stores only
// its saved search; its members are that search's results at the time of asking, so it follows the
// library as it changes. Members can only ever be the owner's own documents and items.
import { randomUUID } from 'node:crypto';
import { ConflictError, InputError, NotFoundError, UnavailableError } from '@kaboodle/platform';
import type { Database, OutgoingEvent, Queryable } from '@kaboodle/platform';
import type { Outbox } from '@kaboodle/platform';
import type { ActivityRepository } from './activity.repository.ts';
import { kaboodleDeleted, kaboodleUpserted } from './catalogue-events.ts';
import type {
  KaboodleRepository,
  KaboodleRow,
  MemberEntity,
  MemberRef,
  SmartSpec,
} from './kaboodle.repository.ts';
import type { LibrarySearchHandle } from './library-search.port.ts';

export const KABOODLE_NOT_FOUND = 'Kaboodle not found';
export const MAX_KABOODLES = 500;
export const MAX_MEMBERS = 2000;
export const MAX_BATCH = 500;
/** How many results a smart kaboodle holds (the search API's own maximum). */
export const SMART_LIMIT = 100;
export const SMART_IS_READ_ONLY =
  "A smart kaboodle's members are whatever matches its search: change the search instead";
export const SMART_UNAVAILABLE = 'Smart kaboodles need the search service, which is not reachable from here';
export const SMART_WITHIN_SMART = 'A smart kaboodle can only search within a kaboodle with its own members';

export type KaboodleWithMembers = KaboodleRow & {
  members: (MemberEntity & { score?: number })[];
  /** Members counted without loading them (lists). */
  documents: number;
  items: number;
};

const key = (r: MemberRef) => `${r.type}:${r.id}`;

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "2 documents and 1 inventory item" */
export function describeMembers(refs: readonly MemberRef[]): string {
  const docs = refs.filter((r) => r.type === 'document').length;
  const items = refs.length - docs;
  const parts = [
    docs ? plural(docs, 'document', 'documents') : '',
    items ? plural(items, 'inventory item', 'inventory items') : '',
  ].filter(Boolean);
  return parts.join(' and ');
}

export interface KaboodleServiceDeps {
  db: Database;
  kaboodles: KaboodleRepository;
  activity: ActivityRepository;
  outbox: Outbox;
  search: LibrarySearchHandle;
}

export function createKaboodleService(deps: KaboodleServiceDeps) {
  const { db, kaboodles, activity, outbox } = deps;

  async function announce(tx: Queryable, row: KaboodleRow): Promise<OutgoingEvent> {
    const members = row.smart ? [] : await kaboodles.memberRefs(tx, row.id);
    return kaboodleUpserted({ row, members });
  }

  /** The owner's kaboodle, locked for a change; 404 when missing or another user's. */
  async function lockOwn(tx: Queryable, ownerId: string, id: string): Promise<KaboodleRow> {
    const row = await kaboodles.get(ownerId, id, tx, true);
    if (!row) throw new NotFoundError(KABOODLE_NOT_FOUND);
    return row;
  }

  /** The smart search's current results as members (best match first). */
  async function smartMembers(
    ownerId: string,
    smart: SmartSpec,
  ): Promise<(MemberEntity & { score: number })[]> {
    const search = deps.search();
    if (!search) throw new UnavailableError(SMART_UNAVAILABLE);
    let hits;
    try {
      hits = await search.search(ownerId, {
        query: smart.query,
        searchType: smart.search_type,
        types: smart.types,
        ...(smart.category ? { category: smart.category } : {}),
        ...(smart.kaboodle_id ? { kaboodleId: smart.kaboodle_id } : {}),
        limit: SMART_LIMIT,
      });
    } catch (err) {
      // The kaboodle it searches within is gone (or so new the index has not heard of it): nothing in it.
      if (smart.kaboodle_id && err instanceof NotFoundError) return [];
      throw err;
    }
    // The index may lag the catalogue by a moment: only entities that exist now are members.
    const found = await kaboodles.entities(ownerId, hits);
    return hits.flatMap((h, position) => {
      const e = found.get(key(h));
      return e ? [{ ...e, position, score: h.score }] : [];
    });
  }

  /** The kaboodle a smart one searches within must be the owner's, with its own members. */
  async function assertSearchable(tx: Queryable, ownerId: string, smart: SmartSpec | null | undefined) {
    if (!smart?.kaboodle_id) return;
    const within = await kaboodles.get(ownerId, smart.kaboodle_id, tx);
    if (!within) throw new NotFoundError(KABOODLE_NOT_FOUND);
    if (within.smart) throw new ConflictError(SMART_WITHIN_SMART);
  }

  /** Refuse refs that are not the owner's (missing and another user's answer alike). */
  async function assertOwned(tx: Queryable, ownerId: string, refs: readonly MemberRef[]): Promise<void> {
    const found = await kaboodles.entities(ownerId, refs, tx);
    const missing = refs.filter((r) => !found.has(key(r)));
    if (missing.length > 0) {
      throw new NotFoundError(
        missing.length === 1
          ? `${missing[0]!.type === 'document' ? 'Document' : 'Inventory item'} not found: ${missing[0]!.id}`
          : `${missing.length} of these documents and items were not found`,
        { details: { missing: missing.map((m) => ({ type: m.type, id: m.id })) } },
      );
    }
  }

  async function recordAdded(tx: Queryable, ownerId: string, row: KaboodleRow, added: MemberRef[]) {
    if (added.length === 0) return;
    const one = added.length === 1 ? added[0]! : undefined;
    await activity.record(tx, {
      ownerId,
      type: 'added',
      message: `Added ${describeMembers(added)} to the kaboodle "${row.name}"`,
      entityType: one?.type ?? null,
      entityId: one?.id ?? null,
    });
  }

  function dedupe<T extends MemberRef>(refs: readonly T[]): T[] {
    const seen = new Set<string>();
    return refs.filter((r) => !seen.has(key(r)) && seen.add(key(r)));
  }

  async function addTo(
    tx: Queryable,
    ownerId: string,
    row: KaboodleRow,
    refs: readonly (MemberRef & { note?: string })[],
  ): Promise<MemberRef[]> {
    if (row.smart) throw new ConflictError(SMART_IS_READ_ONLY);
    const wanted = dedupe(refs);
    await assertOwned(tx, ownerId, wanted);
    const current = await kaboodles.memberRefs(tx, row.id);
    const have = new Set(current.map(key));
    const fresh = wanted.filter((r) => !have.has(key(r)));
    if (current.length + fresh.length > MAX_MEMBERS) {
      throw new ConflictError(
        `A kaboodle holds at most ${MAX_MEMBERS} documents and items; this one has ${current.length}`,
      );
    }
    return kaboodles.addMembers(
      tx,
      row.id,
      fresh.map((r) => ({ type: r.type, id: r.id, note: r.note ?? '' })),
    );
  }

  return {
    async list(ownerId: string): Promise<KaboodleWithMembers[]> {
      const rows = await kaboodles.list(ownerId);
      const covers = await kaboodles.coverCandidates(
        ownerId,
        rows.filter((r) => !r.smart).map((r) => r.id),
      );
      const explicit = await kaboodles.entities(
        ownerId,
        rows.flatMap((r) => (r.cover && !r.smart ? [r.cover] : [])),
      );
      return Promise.all(
        rows.map(async (r) => {
          if (!r.smart) {
            const chosen = r.cover ? explicit.get(key(r.cover)) : undefined;
            return { ...r, members: [...(chosen ? [chosen] : []), ...(covers.get(r.id) ?? [])] };
          }
          // A smart kaboodle's counts are its search's results now; without search it shows none.
          const members = await smartMembers(ownerId, r.smart).catch(() => []);
          return {
            ...r,
            members,
            documents: members.filter((m) => m.type === 'document').length,
            items: members.filter((m) => m.type === 'inventory_item').length,
          };
        }),
      );
    },

    async get(ownerId: string, id: string): Promise<KaboodleWithMembers> {
      const row = await kaboodles.get(ownerId, id);
      if (!row) throw new NotFoundError(KABOODLE_NOT_FOUND);
      const members = row.smart
        ? await smartMembers(ownerId, row.smart)
        : await kaboodles.members(ownerId, id);
      return {
        ...row,
        members,
        documents: members.filter((m) => m.type === 'document').length,
        items: members.filter((m) => m.type === 'inventory_item').length,
      };
    },

    async create(
      ownerId: string,
      input: {
        name: string;
        description: string;
        smart: SmartSpec | null;
        members: (MemberRef & { note?: string })[];
      },
    ): Promise<string> {
      if (input.smart && input.members.length > 0) throw new ConflictError(SMART_IS_READ_ONLY);
      if (input.smart && !deps.search()) throw new UnavailableError(SMART_UNAVAILABLE);
      return db.transaction(async (tx) => {
        if ((await kaboodles.count(ownerId, tx)) >= MAX_KABOODLES)
          throw new ConflictError(`You can keep at most ${MAX_KABOODLES} kaboodles`);
        if (await kaboodles.nameTaken(tx, ownerId, input.name))
          throw new ConflictError(`You already have a kaboodle named "${input.name}"`);
        await assertSearchable(tx, ownerId, input.smart);
        let row = await kaboodles.insert(tx, {
          id: randomUUID(),
          ownerId,
          name: input.name,
          description: input.description,
          smart: input.smart,
        });
        const added = input.members.length > 0 ? await addTo(tx, ownerId, row, input.members) : [];
        if (added.length > 0) row = await kaboodles.update(tx, row.id, {});
        await recordAdded(tx, ownerId, row, added);
        await outbox.enqueue(tx, [await announce(tx, row)]);
        return row.id;
      });
    },

    async update(
      ownerId: string,
      id: string,
      patch: { name?: string; description?: string; smart?: SmartSpec; cover?: MemberRef | null },
    ): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await lockOwn(tx, ownerId, id);
        if (patch.name !== undefined && (await kaboodles.nameTaken(tx, ownerId, patch.name, id)))
          throw new ConflictError(`You already have a kaboodle named "${patch.name}"`);
        if (patch.smart && !row.smart)
          throw new ConflictError('A kaboodle with its own members cannot become a smart kaboodle');
        await assertSearchable(tx, ownerId, patch.smart);
        if (patch.cover) {
          if (row.smart) throw new ConflictError(SMART_IS_READ_ONLY);
          const members = await kaboodles.memberRefs(tx, id);
          if (!members.some((m) => key(m) === key(patch.cover!)))
            throw new InputError('The cover must be one of the kaboodle’s members');
        }
        const updated = await kaboodles.update(tx, id, patch);
        await outbox.enqueue(tx, [await announce(tx, updated)]);
      });
    },

    async delete(ownerId: string, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await kaboodles.delete(tx, ownerId, id);
        if (!row) throw new NotFoundError(KABOODLE_NOT_FOUND);
        await activity.record(tx, {
          ownerId,
          type: 'deleted',
          message: `Deleted the kaboodle "${row.name}"`,
        });
        await outbox.enqueue(tx, [await kaboodleDeleted(tx, row)]);
      });
    },

    /** Adds those not there yet (in the given order, after the last member). */
    async addMembers(
      ownerId: string,
      id: string,
      refs: (MemberRef & { note?: string })[],
    ): Promise<{ added: number; already: number }> {
      return db.transaction(async (tx) => {
        const row = await lockOwn(tx, ownerId, id);
        const added = await addTo(tx, ownerId, row, refs);
        const updated = added.length > 0 ? await kaboodles.update(tx, id, {}) : row;
        await recordAdded(tx, ownerId, updated, added);
        if (added.length > 0) await outbox.enqueue(tx, [await announce(tx, updated)]);
        return { added: added.length, already: dedupe(refs).length - added.length };
      });
    },

    async removeMembers(ownerId: string, id: string, refs: MemberRef[]): Promise<{ removed: number }> {
      return db.transaction(async (tx) => {
        const row = await lockOwn(tx, ownerId, id);
        if (row.smart) throw new ConflictError(SMART_IS_READ_ONLY);
        const removed = await kaboodles.removeMembers(tx, id, dedupe(refs));
        if (removed > 0) {
          const clearCover = row.cover && refs.some((r) => key(r) === key(row.cover!));
          const updated = await kaboodles.update(tx, id, clearCover ? { cover: null } : {});
          await outbox.enqueue(tx, [await announce(tx, updated)]);
        }
        return { removed };
      });
    },

    /** `order` lists every member exactly once, in the new order. */
    async reorder(ownerId: string, id: string, order: MemberRef[]): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await lockOwn(tx, ownerId, id);
        if (row.smart) throw new ConflictError(SMART_IS_READ_ONLY);
        const current = await kaboodles.memberRefs(tx, id);
        const have = new Set(current.map(key));
        const given = new Set(order.map(key));
        if (given.size !== order.length || given.size !== have.size || [...given].some((k) => !have.has(k))) {
          throw new ConflictError(
            'The new order must list every member of the kaboodle exactly once (it changed meanwhile? reload it)',
          );
        }
        await kaboodles.reorder(tx, id, order);
        const updated = await kaboodles.update(tx, id, {});
        await outbox.enqueue(tx, [await announce(tx, updated)]);
      });
    },

    async setNote(ownerId: string, id: string, member: MemberRef, note: string): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await lockOwn(tx, ownerId, id);
        if (row.smart) throw new ConflictError(SMART_IS_READ_ONLY);
        if (!(await kaboodles.setNote(tx, id, member, note)))
          throw new NotFoundError('That document or item is not in this kaboodle');
        const updated = await kaboodles.update(tx, id, {});
        await outbox.enqueue(tx, [await announce(tx, updated)]);
      });
    },

    containing: (ownerId: string, member: MemberRef) => kaboodles.containing(ownerId, member),

    /**
     * An entity was deleted (inside the deleting transaction): it leaves every kaboodle, and each of
     * those kaboodles is announced with its new membership.
     */
    async entityRemoved(tx: Queryable, ownerId: string, member: MemberRef): Promise<OutgoingEvent[]> {
      const ids = await kaboodles.removeEntity(tx, ownerId, member);
      const events: OutgoingEvent[] = [];
      for (const id of ids) {
        const row = await kaboodles.get(ownerId, id, tx, true);
        if (!row) continue;
        const clearCover = row.cover && key(row.cover) === key(member);
        events.push(await announce(tx, await kaboodles.update(tx, id, clearCover ? { cover: null } : {})));
      }
      return events;
    },

    /** A merge: `from`'s memberships move to `to` (inside the merging transaction). */
    async membershipsMoved(
      tx: Queryable,
      ownerId: string,
      from: MemberRef,
      to: MemberRef,
    ): Promise<OutgoingEvent[]> {
      const ids = await kaboodles.moveMemberships(tx, ownerId, from, to);
      const events: OutgoingEvent[] = [];
      for (const id of ids) {
        const row = await kaboodles.get(ownerId, id, tx, true);
        if (!row) continue;
        const moveCover = row.cover && key(row.cover) === key(from);
        events.push(await announce(tx, await kaboodles.update(tx, id, moveCover ? { cover: to } : {})));
      }
      return events;
    },
  };
}

export type KaboodleService = ReturnType<typeof createKaboodleService>;
