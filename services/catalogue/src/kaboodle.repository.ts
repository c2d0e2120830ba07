// Kaboodles and their members in SQL (same statements on PGlite and Postgres). Every read names the
// owner: a member row only ever joins the owner's own documents and items, so another user's entity
// can neither be added nor shown. Positions are integers; a reorder rewrites them, a removal leaves gaps.
import { jsonb, runAll, runCount, runFirst, sql } from '@kaboodle/platform';
import type { Queryable, Selectable } from '@kaboodle/platform';
import type { InferResult } from 'kysely';
import type { EntityKind } from './activity.repository.ts';
import { catalogueSql } from './db-schema.ts';
import type { Kaboodles } from './db-schema.gen.ts';
import { toNumberOrNull } from './entity-query.ts';
import type { SmartSearchType } from './library-search.port.ts';

export interface MemberRef {
  type: EntityKind;
  id: string;
}

export interface SmartSpec {
  query: string;
  search_type: SmartSearchType;
  /** Empty: documents and inventory items. */
  types: EntityKind[];
  category: string | null;
  /** Only within this (plain) kaboodle of the owner's; absent in rows saved before it existed. */
  kaboodle_id?: string | null;
}

export interface KaboodleRow {
  id: string;
  owner_id: string;
  name: string;
  description: string;
  smart: SmartSpec | null;
  cover: MemberRef | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

/** A member with what the screens and exports show of its entity. */
export interface MemberEntity extends MemberRef {
  title: string;
  /** Author (documents) or material (items). */
  subtitle: string;
  category: string;
  summary: string;
  year: number | null;
  hashtags: string[];
  /** Items whose source is a picture. */
  has_image: boolean;
  /** The start of a document's text: its "first page" on a cover. */
  excerpt: string;
  retail_price: number | null;
  file_name: string;
  created_at: Date;
  note: string;
  added_at: Date | null;
  position: number;
}

function toKaboodle(r: Selectable<Kaboodles>): KaboodleRow {
  return {
    id: r.id,
    owner_id: r.owner_id,
    name: r.name,
    description: r.description,
    smart: r.smart,
    cover: r.cover_type && r.cover_id ? { type: r.cover_type, id: r.cover_id } : null,
    version: r.version,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

const q0 = catalogueSql;

/** Documents and items of one owner as member entities (one UNION ALL, so a list keeps one order). */
function entitySelect(ownerId: string) {
  return q0
    .selectFrom('documents as d')
    .where('d.owner_id', '=', ownerId)
    .select([
      sql<EntityKind>`'document'`.as('entity_type'),
      'd.id as entity_id',
      'd.title',
      'd.author as subtitle',
      'd.category',
      'd.summary',
      'd.publication_year as year',
      'd.hashtags',
      sql<boolean>`false`.as('has_image'),
      sql<string>`left(d.extracted_text, 600)`.as('excerpt'),
      sql<string | null>`NULL::numeric`.as('retail_price'),
      'd.file_name',
      'd.created_at',
    ])
    .unionAll(
      q0
        .selectFrom('inventory_items as i')
        .where('i.owner_id', '=', ownerId)
        .select([
          sql<EntityKind>`'inventory_item'`.as('entity_type'),
          'i.id as entity_id',
          'i.name as title',
          'i.material as subtitle',
          'i.category',
          'i.description as summary',
          sql<number | null>`NULL::integer`.as('year'),
          'i.hashtags',
          sql<boolean>`i.content_type LIKE 'image/%'`.as('has_image'),
          sql<string>`''`.as('excerpt'),
          'i.retail_price',
          'i.file_name',
          'i.created_at',
        ]),
    );
}

type EntityRead = InferResult<ReturnType<typeof entitySelect>>[number];

/** A member entity, with its membership when the statement joined it. */
function toMember(r: EntityRead & { note?: string; added_at?: Date; position?: number }): MemberEntity {
  return {
    type: r.entity_type,
    id: r.entity_id,
    title: r.title || r.file_name,
    subtitle: r.subtitle,
    category: r.category,
    summary: r.summary,
    year: r.year,
    hashtags: r.hashtags.map((h) => h.tag).filter((t) => t !== ''),
    has_image: r.has_image,
    excerpt: r.excerpt,
    // numeric comes back as text from both adapters
    retail_price: toNumberOrNull(r.retail_price),
    file_name: r.file_name,
    created_at: r.created_at,
    note: r.note ?? '',
    added_at: r.added_at ?? null,
    position: r.position ?? 0,
  };
}

export function createKaboodleRepository(db: Queryable) {
  return {
    async list(ownerId: string): Promise<(KaboodleRow & { documents: number; items: number })[]> {
      const counts = q0
        .selectFrom('kaboodle_members as m')
        .innerJoin('kaboodles as o', (j) =>
          j.onRef('o.id', '=', 'm.kaboodle_id').on('o.owner_id', '=', ownerId),
        )
        .select((eb) => [
          'm.kaboodle_id',
          eb.fn.countAll<number>().filterWhere('m.entity_type', '=', 'document').as('documents'),
          eb.fn.countAll<number>().filterWhere('m.entity_type', '=', 'inventory_item').as('items'),
        ])
        .groupBy('m.kaboodle_id');
      const rows = await runAll(
        db,
        q0
          .selectFrom('kaboodles as k')
          .leftJoin(counts.as('c'), 'c.kaboodle_id', 'k.id')
          .selectAll('k')
          .select(['c.documents', 'c.items'])
          .where('k.owner_id', '=', ownerId)
          .orderBy('k.updated_at', 'desc')
          .orderBy('k.id'),
      );
      return rows.map((r) => ({ ...toKaboodle(r), documents: r.documents ?? 0, items: r.items ?? 0 }));
    },

    async count(ownerId: string, q: Queryable = db): Promise<number> {
      const row = await runFirst(
        q,
        q0
          .selectFrom('kaboodles')
          .where('owner_id', '=', ownerId)
          .select((eb) => eb.fn.countAll<number>().as('n')),
      );
      return row?.n ?? 0;
    },

    /** The owner's kaboodle (locked in a transaction when asked), or null. */
    async get(
      ownerId: string,
      id: string,
      q: Queryable = db,
      forUpdate = false,
    ): Promise<KaboodleRow | null> {
      const query = q0
        .selectFrom('kaboodles')
        .selectAll()
        .where('id', '=', id)
        .where('owner_id', '=', ownerId);
      const row = await runFirst(q, forUpdate ? query.forUpdate() : query);
      return row ? toKaboodle(row) : null;
    },

    async nameTaken(q: Queryable, ownerId: string, name: string, except?: string): Promise<boolean> {
      let query = q0
        .selectFrom('kaboodles')
        .select('id')
        .where('owner_id', '=', ownerId)
        .where(sql<boolean>`lower(name) = lower(${name})`);
      if (except) query = query.where('id', '<>', except);
      return (await runFirst(q, query)) !== null;
    },

    async insert(
      q: Queryable,
      k: { id: string; ownerId: string; name: string; description: string; smart: SmartSpec | null },
    ): Promise<KaboodleRow> {
      const row = await runFirst(
        q,
        q0
          .insertInto('kaboodles')
          .values({
            id: k.id,
            owner_id: k.ownerId,
            name: k.name,
            description: k.description,
            smart: k.smart ? jsonb(k.smart) : null,
            version: sql<number>`nextval('entity_version_seq')`,
          })
          .returningAll(),
      );
      return toKaboodle(row!);
    },

    /** Apply the given fields (undefined: unchanged) and take a new version. */
    async update(
      q: Queryable,
      id: string,
      set: { name?: string; description?: string; smart?: SmartSpec | null; cover?: MemberRef | null },
    ): Promise<KaboodleRow> {
      const row = await runFirst(
        q,
        q0
          .updateTable('kaboodles')
          .set({
            // undefined fields are left out of the statement
            name: set.name,
            description: set.description,
            smart: set.smart === undefined ? undefined : set.smart ? jsonb(set.smart) : null,
            cover_type: set.cover === undefined ? undefined : (set.cover?.type ?? null),
            cover_id: set.cover === undefined ? undefined : (set.cover?.id ?? null),
            version: sql<number>`nextval('entity_version_seq')`,
            updated_at: sql<Date>`clock_timestamp()`,
          })
          .where('id', '=', id)
          .returningAll(),
      );
      return toKaboodle(row!);
    },

    async delete(q: Queryable, ownerId: string, id: string): Promise<KaboodleRow | null> {
      const row = await runFirst(
        q,
        q0.deleteFrom('kaboodles').where('id', '=', id).where('owner_id', '=', ownerId).returningAll(),
      );
      return row ? toKaboodle(row) : null;
    },

    /** Members in order, with their entities (a member whose entity is gone is not shown). */
    async members(ownerId: string, kaboodleId: string, q: Queryable = db): Promise<MemberEntity[]> {
      const rows = await runAll(
        q,
        q0
          .selectFrom('kaboodle_members as m')
          .innerJoin(entitySelect(ownerId).as('e'), (j) =>
            j.onRef('e.entity_type', '=', 'm.entity_type').onRef('e.entity_id', '=', 'm.entity_id'),
          )
          .selectAll('e')
          .select(['m.note', 'm.added_at', 'm.position'])
          .where('m.kaboodle_id', '=', kaboodleId)
          .orderBy('m.position')
          .orderBy('m.added_at')
          .orderBy('m.entity_id'),
      );
      return rows.map(toMember);
    },

    /** Member refs in order (for events), without the entities. */
    async memberRefs(
      q: Queryable,
      kaboodleId: string,
    ): Promise<(MemberRef & { note: string; added_at: Date; position: number })[]> {
      const rows = await runAll(
        q,
        q0
          .selectFrom('kaboodle_members')
          .select(['entity_type', 'entity_id', 'note', 'added_at', 'position'])
          .where('kaboodle_id', '=', kaboodleId)
          .orderBy('position')
          .orderBy('added_at')
          .orderBy('entity_id'),
      );
      return rows.map((r) => ({
        type: r.entity_type,
        id: r.entity_id,
        note: r.note,
        added_at: r.added_at,
        position: r.position,
      }));
    },

    /**
     * Kaboodles by id with their member refs in order (ListForIndex: a rebuilt search index gets
     * memberships back). Smart kaboodles have none: their search decides.
     */
    async forIndex(
      ids: string[],
    ): Promise<{ row: KaboodleRow; members: (MemberRef & { note: string; added_at: Date })[] }[]> {
      if (ids.length === 0) return [];
      const [rows, memberRows] = await Promise.all([
        runAll(db, q0.selectFrom('kaboodles').selectAll().where('id', 'in', ids)),
        runAll(
          db,
          q0
            .selectFrom('kaboodle_members')
            .select(['kaboodle_id', 'entity_type', 'entity_id', 'note', 'added_at'])
            .where('kaboodle_id', 'in', ids)
            .orderBy('kaboodle_id')
            .orderBy('position')
            .orderBy('added_at')
            .orderBy('entity_id'),
        ),
      ]);
      const byKaboodle = new Map<string, (MemberRef & { note: string; added_at: Date })[]>();
      for (const m of memberRows) {
        const list = byKaboodle.get(m.kaboodle_id) ?? [];
        list.push({ type: m.entity_type, id: m.entity_id, note: m.note, added_at: m.added_at });
        byKaboodle.set(m.kaboodle_id, list);
      }
      return rows.map((r) => {
        const row = toKaboodle(r);
        return { row, members: row.smart ? [] : (byKaboodle.get(row.id) ?? []) };
      });
    },

    /** The owner's entities among refs, as member entities, keyed `type:id`. */
    async entities(
      ownerId: string,
      refs: readonly MemberRef[],
      q: Queryable = db,
    ): Promise<Map<string, MemberEntity>> {
      const out = new Map<string, MemberEntity>();
      if (refs.length === 0) return out;
      const rows = await runAll(
        q,
        q0
          .selectFrom(entitySelect(ownerId).as('e'))
          .selectAll('e')
          .where((eb) =>
            eb(
              eb.refTuple('e.entity_type', 'e.entity_id'),
              'in',
              refs.map((r) => eb.tuple(r.type, r.id)),
            ),
          ),
      );
      for (const r of rows) {
        const m = toMember(r);
        out.set(`${m.type}:${m.id}`, m);
      }
      return out;
    },

    /** Add members after the last one (in the given order); those already there are left as they are. */
    async addMembers(
      q: Queryable,
      kaboodleId: string,
      members: readonly (MemberRef & { note: string })[],
    ): Promise<MemberRef[]> {
      if (members.length === 0) return [];
      const last = await runFirst(
        q,
        q0
          .selectFrom('kaboodle_members')
          .where('kaboodle_id', '=', kaboodleId)
          .select((eb) => eb.fn.max('position').as('p')),
      );
      const start = (last?.p ?? -1) + 1;
      const rows = await runAll(
        q,
        q0
          .insertInto('kaboodle_members')
          .values(
            members.map((m, i) => ({
              kaboodle_id: kaboodleId,
              entity_type: m.type,
              entity_id: m.id,
              position: start + i,
              note: m.note,
              added_at: sql<Date>`clock_timestamp()`,
            })),
          )
          .onConflict((oc) => oc.doNothing())
          .returning(['entity_type', 'entity_id']),
      );
      return rows.map((r) => ({ type: r.entity_type, id: r.entity_id }));
    },

    async removeMembers(q: Queryable, kaboodleId: string, refs: readonly MemberRef[]): Promise<number> {
      if (refs.length === 0) return 0;
      return runCount(
        q,
        q0
          .deleteFrom('kaboodle_members')
          .where('kaboodle_id', '=', kaboodleId)
          .where((eb) =>
            eb(
              eb.refTuple('entity_type', 'entity_id'),
              'in',
              refs.map((r) => eb.tuple(r.type, r.id)),
            ),
          ),
      );
    },

    /** refs must be every member exactly once (the service checks): positions become 0..n-1. */
    async reorder(q: Queryable, kaboodleId: string, refs: readonly MemberRef[]): Promise<void> {
      if (refs.length === 0) return;
      // one statement for every position: UPDATE … FROM (VALUES …), which Kysely has no builder for
      const values = sql.join(refs.map((r, i) => sql`(${r.type}, ${r.id}::uuid, ${i}::integer)`));
      await runCount(
        q,
        sql`UPDATE kaboodle_members m SET position = v.pos
              FROM (VALUES ${values}) AS v(entity_type, entity_id, pos)
             WHERE m.kaboodle_id = ${kaboodleId}::uuid
               AND m.entity_type = v.entity_type AND m.entity_id = v.entity_id`,
      );
    },

    async setNote(q: Queryable, kaboodleId: string, member: MemberRef, note: string): Promise<boolean> {
      const changed = await runCount(
        q,
        q0
          .updateTable('kaboodle_members')
          .set({ note })
          .where('kaboodle_id', '=', kaboodleId)
          .where('entity_type', '=', member.type)
          .where('entity_id', '=', member.id),
      );
      return changed > 0;
    },

    /** An entity is gone: its memberships go too. The kaboodles it was in, locked for the caller. */
    async removeEntity(q: Queryable, ownerId: string, member: MemberRef): Promise<string[]> {
      const rows = await runAll(
        q,
        q0
          .deleteFrom('kaboodle_members as m')
          .using('kaboodles as k')
          .whereRef('k.id', '=', 'm.kaboodle_id')
          .where('k.owner_id', '=', ownerId)
          .where('m.entity_type', '=', member.type)
          .where('m.entity_id', '=', member.id)
          .returning('m.kaboodle_id'),
      );
      return [...new Set(rows.map((r) => r.kaboodle_id))];
    },

    /** Move every membership of `from` to `to` (a merge), keeping `to` where it already is. */
    async moveMemberships(q: Queryable, ownerId: string, from: MemberRef, to: MemberRef): Promise<string[]> {
      const rows = await runAll(
        q,
        q0
          .selectFrom('kaboodle_members as m')
          .innerJoin('kaboodles as k', 'k.id', 'm.kaboodle_id')
          .select('m.kaboodle_id')
          .where('k.owner_id', '=', ownerId)
          .where('m.entity_type', '=', from.type)
          .where('m.entity_id', '=', from.id),
      );
      const ids = [...new Set(rows.map((r) => r.kaboodle_id))];
      for (const id of ids) {
        const fromMember = q0
          .selectFrom('kaboodle_members')
          .where('kaboodle_id', '=', id)
          .where('entity_type', '=', from.type)
          .where('entity_id', '=', from.id);
        await runCount(
          q,
          q0
            .insertInto('kaboodle_members')
            .columns(['kaboodle_id', 'entity_type', 'entity_id', 'position', 'note', 'added_at'])
            .expression(
              fromMember.select([
                'kaboodle_id',
                sql<EntityKind>`${to.type}::text`.as('entity_type'),
                sql<string>`${to.id}::uuid`.as('entity_id'),
                'position',
                'note',
                'added_at',
              ]),
            )
            .onConflict((oc) => oc.doNothing()),
        );
        await runCount(
          q,
          q0
            .deleteFrom('kaboodle_members')
            .where('kaboodle_id', '=', id)
            .where('entity_type', '=', from.type)
            .where('entity_id', '=', from.id),
        );
      }
      return ids;
    },

    /** Kaboodles of the owner holding an entity (an entity page's "In kaboodles"). */
    async containing(ownerId: string, member: MemberRef): Promise<{ id: string; name: string }[]> {
      return runAll(
        db,
        q0
          .selectFrom('kaboodles as k')
          .innerJoin('kaboodle_members as m', 'm.kaboodle_id', 'k.id')
          .select(['k.id', 'k.name'])
          .where('k.owner_id', '=', ownerId)
          .where('m.entity_type', '=', member.type)
          .where('m.entity_id', '=', member.id)
          .orderBy(sql`lower(k.name)`),
      );
    },

    /** The first member with a picture and the first document of each kaboodle (for covers). */
    async coverCandidates(
      ownerId: string,
      kaboodleIds: readonly string[],
    ): Promise<Map<string, MemberEntity[]>> {
      const out = new Map<string, MemberEntity[]>();
      if (kaboodleIds.length === 0) return out;
      const rows = await runAll(
        db,
        q0
          .selectFrom('kaboodle_members as m')
          .innerJoin(entitySelect(ownerId).as('e'), (j) =>
            j.onRef('e.entity_type', '=', 'm.entity_type').onRef('e.entity_id', '=', 'm.entity_id'),
          )
          .distinctOn(['m.kaboodle_id', 'e.has_image'])
          .select(['m.kaboodle_id', 'm.note', 'm.added_at', 'm.position'])
          .selectAll('e')
          .where('m.kaboodle_id', 'in', [...kaboodleIds])
          .orderBy('m.kaboodle_id')
          .orderBy('e.has_image')
          .orderBy('m.position'),
      );
      for (const r of rows) {
        const list = out.get(r.kaboodle_id) ?? [];
        list.push(toMember(r));
        out.set(r.kaboodle_id, list);
      }
      return out;
    },
  };
}

export type KaboodleRepository = ReturnType<typeof createKaboodleRepository>;
