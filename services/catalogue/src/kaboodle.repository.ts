// Kaboodles and their members in SQL (same statements on PGlite and Postgres). Every read names the
// owner: a member row only ever joins the owner's own documents and items, so another user's entity
// can neither be added nor shown. Positions are integers; a reorder rewrites them, a removal leaves gaps.
import type { Queryable } from '@kaboodle/platform';
import type { EntityKind } from './activity.repository.ts';
import { json, Params, toNumber } from './entity-query.ts';
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

const ref = (r: Record<string, unknown>): MemberRef => ({
  type: r.entity_type as EntityKind,
  id: r.entity_id as string,
});

function toKaboodle(r: Record<string, unknown>): KaboodleRow {
  return {
    id: r.id as string,
    owner_id: r.owner_id as string,
    name: r.name as string,
    description: r.description as string,
    smart: r.smart === null || r.smart === undefined ? null : json<SmartSpec>(r.smart, null as never),
    cover: r.cover_type && r.cover_id ? { type: r.cover_type as EntityKind, id: r.cover_id as string } : null,
    version: toNumber(r.version),
    created_at: new Date(r.created_at as Date),
    updated_at: new Date(r.updated_at as Date),
  };
}

const tags = (v: unknown): string[] =>
  json<{ tag?: unknown }[]>(v, [])
    .map((h) => (typeof h?.tag === 'string' ? h.tag : ''))
    .filter((t) => t !== '');

/** Documents and items of one owner as member entities (one UNION, so a list keeps one order). */
const ENTITY_SELECT = `
  SELECT 'document' AS entity_type, d.id AS entity_id, d.title, d.author AS subtitle, d.category,
         d.summary, d.publication_year AS year, d.hashtags, false AS has_image,
         left(d.extracted_text, 600) AS excerpt, NULL::numeric AS retail_price, d.file_name, d.created_at
    FROM documents d WHERE d.owner_id = $1
  UNION ALL
  SELECT 'inventory_item', i.id, i.name, i.material, i.category, i.description, NULL::integer, i.hashtags,
         i.content_type LIKE 'image/%', '', i.retail_price, i.file_name, i.created_at
    FROM inventory_items i WHERE i.owner_id = $1`;

function toMember(r: Record<string, unknown>): MemberEntity {
  return {
    ...ref(r),
    title: (r.title as string) || (r.file_name as string) || '',
    subtitle: (r.subtitle as string) ?? '',
    category: (r.category as string) ?? '',
    summary: (r.summary as string) ?? '',
    year: r.year === null || r.year === undefined ? null : toNumber(r.year),
    hashtags: tags(r.hashtags),
    has_image: r.has_image === true,
    excerpt: (r.excerpt as string) ?? '',
    retail_price: r.retail_price === null || r.retail_price === undefined ? null : toNumber(r.retail_price),
    file_name: (r.file_name as string) ?? '',
    created_at: new Date(r.created_at as Date),
    note: (r.note as string | undefined) ?? '',
    added_at: r.added_at ? new Date(r.added_at as Date) : null,
    position: r.position === undefined || r.position === null ? 0 : toNumber(r.position),
  };
}

/** `(type, id) IN ((…), …)` over refs; every id is a checked UUID before it gets here. */
function refList(p: Params, refs: readonly MemberRef[]): string {
  return refs.map((r) => `(${p.add(r.type)}, ${p.add(r.id)}::uuid)`).join(', ');
}

export function createKaboodleRepository(db: Queryable) {
  return {
    async list(ownerId: string): Promise<(KaboodleRow & { documents: number; items: number })[]> {
      const { rows } = await db.query(
        `SELECT k.*,
                COALESCE(c.documents, 0) AS documents, COALESCE(c.items, 0) AS items
           FROM kaboodles k
           LEFT JOIN (
             SELECT m.kaboodle_id,
                    count(*) FILTER (WHERE m.entity_type = 'document') AS documents,
                    count(*) FILTER (WHERE m.entity_type = 'inventory_item') AS items
               FROM kaboodle_members m JOIN kaboodles o ON o.id = m.kaboodle_id AND o.owner_id = $1
              GROUP BY m.kaboodle_id
           ) c ON c.kaboodle_id = k.id
          WHERE k.owner_id = $1
          ORDER BY k.updated_at DESC, k.id`,
        [ownerId],
      );
      return rows.map((r) => ({
        ...toKaboodle(r),
        documents: toNumber(r.documents),
        items: toNumber(r.items),
      }));
    },

    async count(ownerId: string, q: Queryable = db): Promise<number> {
      const { rows } = await q.query<{ n: unknown }>(
        'SELECT count(*) AS n FROM kaboodles WHERE owner_id = $1',
        [ownerId],
      );
      return toNumber(rows[0]?.n ?? 0);
    },

    /** The owner's kaboodle (locked in a transaction when asked), or null. */
    async get(
      ownerId: string,
      id: string,
      q: Queryable = db,
      forUpdate = false,
    ): Promise<KaboodleRow | null> {
      const { rows } = await q.query(
        `SELECT * FROM kaboodles WHERE id = $1 AND owner_id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
        [id, ownerId],
      );
      return rows[0] ? toKaboodle(rows[0]) : null;
    },

    async nameTaken(q: Queryable, ownerId: string, name: string, except?: string): Promise<boolean> {
      const { rows } = await q.query(
        `SELECT 1 FROM kaboodles WHERE owner_id = $1 AND lower(name) = lower($2) AND id <> $3::uuid`,
        [ownerId, name, except ?? '00000000-0000-0000-0000-000000000000'],
      );
      return rows.length > 0;
    },

    async insert(
      q: Queryable,
      k: { id: string; ownerId: string; name: string; description: string; smart: SmartSpec | null },
    ): Promise<KaboodleRow> {
      const { rows } = await q.query(
        `INSERT INTO kaboodles (id, owner_id, name, description, smart, version)
         VALUES ($1, $2, $3, $4, $5::jsonb, nextval('entity_version_seq')) RETURNING *`,
        [k.id, k.ownerId, k.name, k.description, k.smart ? JSON.stringify(k.smart) : null],
      );
      return toKaboodle(rows[0]!);
    },

    /** Apply the given fields (undefined: unchanged) and take a new version. */
    async update(
      q: Queryable,
      id: string,
      set: { name?: string; description?: string; smart?: SmartSpec | null; cover?: MemberRef | null },
    ): Promise<KaboodleRow> {
      const p = new Params();
      const parts: string[] = [];
      if (set.name !== undefined) parts.push(`name = ${p.add(set.name)}`);
      if (set.description !== undefined) parts.push(`description = ${p.add(set.description)}`);
      if (set.smart !== undefined)
        parts.push(`smart = ${p.add(set.smart ? JSON.stringify(set.smart) : null)}::jsonb`);
      if (set.cover !== undefined) {
        parts.push(`cover_type = ${p.add(set.cover?.type ?? null)}`);
        parts.push(`cover_id = ${p.add(set.cover?.id ?? null)}::uuid`);
      }
      const { rows } = await q.query(
        `UPDATE kaboodles SET ${[...parts, `version = nextval('entity_version_seq')`, 'updated_at = clock_timestamp()'].join(', ')}
          WHERE id = ${p.add(id)} RETURNING *`,
        p.values,
      );
      return toKaboodle(rows[0]!);
    },

    async delete(q: Queryable, ownerId: string, id: string): Promise<KaboodleRow | null> {
      const { rows } = await q.query('DELETE FROM kaboodles WHERE id = $1 AND owner_id = $2 RETURNING *', [
        id,
        ownerId,
      ]);
      return rows[0] ? toKaboodle(rows[0]) : null;
    },

    /** Members in order, with their entities (a member whose entity is gone is not shown). */
    async members(ownerId: string, kaboodleId: string, q: Queryable = db): Promise<MemberEntity[]> {
      const { rows } = await q.query(
        `SELECT e.*, m.note, m.added_at, m.position
           FROM kaboodle_members m
           JOIN (${ENTITY_SELECT}) e ON e.entity_type = m.entity_type AND e.entity_id = m.entity_id
          WHERE m.kaboodle_id = $2
          ORDER BY m.position, m.added_at, m.entity_id`,
        [ownerId, kaboodleId],
      );
      return rows.map(toMember);
    },

    /** Member refs in order (for events), without the entities. */
    async memberRefs(
      q: Queryable,
      kaboodleId: string,
    ): Promise<(MemberRef & { note: string; added_at: Date; position: number })[]> {
      const { rows } = await q.query(
        `SELECT entity_type, entity_id, note, added_at, position FROM kaboodle_members
          WHERE kaboodle_id = $1 ORDER BY position, added_at, entity_id`,
        [kaboodleId],
      );
      return rows.map((r) => ({
        ...ref(r),
        note: r.note as string,
        added_at: new Date(r.added_at as Date),
        position: toNumber(r.position),
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
      const [{ rows }, { rows: memberRows }] = await Promise.all([
        db.query('SELECT * FROM kaboodles WHERE id = ANY($1::uuid[])', [ids]),
        db.query(
          `SELECT kaboodle_id, entity_type, entity_id, note, added_at FROM kaboodle_members
            WHERE kaboodle_id = ANY($1::uuid[]) ORDER BY kaboodle_id, position, added_at, entity_id`,
          [ids],
        ),
      ]);
      const byKaboodle = new Map<string, (MemberRef & { note: string; added_at: Date })[]>();
      for (const m of memberRows) {
        const list = byKaboodle.get(m.kaboodle_id as string) ?? [];
        list.push({ ...ref(m), note: m.note as string, added_at: new Date(m.added_at as Date) });
        byKaboodle.set(m.kaboodle_id as string, list);
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
      const p = new Params();
      p.add(ownerId);
      const { rows } = await q.query(
        `SELECT e.* FROM (${ENTITY_SELECT}) e WHERE (e.entity_type, e.entity_id) IN (${refList(p, refs)})`,
        p.values,
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
      const { rows: last } = await q.query<{ p: unknown }>(
        'SELECT COALESCE(max(position), -1) AS p FROM kaboodle_members WHERE kaboodle_id = $1',
        [kaboodleId],
      );
      const start = toNumber(last[0]?.p ?? -1) + 1;
      const p = new Params();
      const k = p.add(kaboodleId);
      const values = members
        .map(
          (m, i) =>
            `(${k}::uuid, ${p.add(m.type)}, ${p.add(m.id)}::uuid, ${start + i}, ${p.add(m.note)}, clock_timestamp())`,
        )
        .join(', ');
      const { rows } = await q.query(
        `INSERT INTO kaboodle_members (kaboodle_id, entity_type, entity_id, position, note, added_at)
         VALUES ${values} ON CONFLICT DO NOTHING RETURNING entity_type, entity_id`,
        p.values,
      );
      return rows.map(ref);
    },

    async removeMembers(q: Queryable, kaboodleId: string, refs: readonly MemberRef[]): Promise<number> {
      if (refs.length === 0) return 0;
      const p = new Params();
      const k = p.add(kaboodleId);
      const res = await q.query(
        `DELETE FROM kaboodle_members WHERE kaboodle_id = ${k}::uuid AND (entity_type, entity_id) IN (${refList(p, refs)})`,
        p.values,
      );
      return res.rowCount;
    },

    /** refs must be every member exactly once (the service checks): positions become 0..n-1. */
    async reorder(q: Queryable, kaboodleId: string, refs: readonly MemberRef[]): Promise<void> {
      if (refs.length === 0) return;
      const p = new Params();
      const k = p.add(kaboodleId);
      const values = refs.map((r, i) => `(${p.add(r.type)}, ${p.add(r.id)}::uuid, ${i})`).join(', ');
      await q.query(
        `UPDATE kaboodle_members m SET position = v.pos
           FROM (VALUES ${values}) AS v(entity_type, entity_id, pos)
          WHERE m.kaboodle_id = ${k}::uuid AND m.entity_type = v.entity_type AND m.entity_id = v.entity_id`,
        p.values,
      );
    },

    async setNote(q: Queryable, kaboodleId: string, member: MemberRef, note: string): Promise<boolean> {
      const res = await q.query(
        `UPDATE kaboodle_members SET note = $4 WHERE kaboodle_id = $1 AND entity_type = $2 AND entity_id = $3`,
        [kaboodleId, member.type, member.id, note],
      );
      return res.rowCount > 0;
    },

    /** An entity is gone: its memberships go too. The kaboodles it was in, locked for the caller. */
    async removeEntity(q: Queryable, ownerId: string, member: MemberRef): Promise<string[]> {
      const { rows } = await q.query<{ kaboodle_id: string }>(
        `DELETE FROM kaboodle_members m USING kaboodles k
          WHERE k.id = m.kaboodle_id AND k.owner_id = $1 AND m.entity_type = $2 AND m.entity_id = $3
          RETURNING m.kaboodle_id`,
        [ownerId, member.type, member.id],
      );
      return [...new Set(rows.map((r) => r.kaboodle_id))];
    },

    /** Move every membership of `from` to `to` (a merge), keeping `to` where it already is. */
    async moveMemberships(q: Queryable, ownerId: string, from: MemberRef, to: MemberRef): Promise<string[]> {
      const { rows } = await q.query<{ kaboodle_id: string }>(
        `SELECT m.kaboodle_id FROM kaboodle_members m JOIN kaboodles k ON k.id = m.kaboodle_id
          WHERE k.owner_id = $1 AND m.entity_type = $2 AND m.entity_id = $3`,
        [ownerId, from.type, from.id],
      );
      const ids = [...new Set(rows.map((r) => r.kaboodle_id))];
      for (const id of ids) {
        await q.query(
          `INSERT INTO kaboodle_members (kaboodle_id, entity_type, entity_id, position, note, added_at)
           SELECT kaboodle_id, $3, $4::uuid, position, note, added_at FROM kaboodle_members
            WHERE kaboodle_id = $1 AND entity_type = $2 AND entity_id = $5
           ON CONFLICT DO NOTHING`,
          [id, from.type, to.type, to.id, from.id],
        );
        await q.query(
          'DELETE FROM kaboodle_members WHERE kaboodle_id = $1 AND entity_type = $2 AND entity_id = $3',
          [id, from.type, from.id],
        );
      }
      return ids;
    },

    /** Kaboodles of the owner holding an entity (an entity page's "In kaboodles"). */
    async containing(ownerId: string, member: MemberRef): Promise<{ id: string; name: string }[]> {
      const { rows } = await db.query<{ id: string; name: string }>(
        `SELECT k.id, k.name FROM kaboodles k JOIN kaboodle_members m ON m.kaboodle_id = k.id
          WHERE k.owner_id = $1 AND m.entity_type = $2 AND m.entity_id = $3 ORDER BY lower(k.name)`,
        [ownerId, member.type, member.id],
      );
      return rows;
    },

    /** The first member with a picture and the first document of each kaboodle (for covers). */
    async coverCandidates(
      ownerId: string,
      kaboodleIds: readonly string[],
    ): Promise<Map<string, MemberEntity[]>> {
      const out = new Map<string, MemberEntity[]>();
      if (kaboodleIds.length === 0) return out;
      const p = new Params();
      p.add(ownerId);
      const ids = kaboodleIds.map((id) => `${p.add(id)}::uuid`).join(', ');
      const { rows } = await db.query(
        `SELECT * FROM (
           SELECT DISTINCT ON (m.kaboodle_id, e.has_image) m.kaboodle_id, e.*, m.note, m.added_at, m.position
             FROM kaboodle_members m
             JOIN (${ENTITY_SELECT}) e ON e.entity_type = m.entity_type AND e.entity_id = m.entity_id
            WHERE m.kaboodle_id IN (${ids})
            ORDER BY m.kaboodle_id, e.has_image, m.position
         ) c`,
        p.values,
      );
      for (const r of rows) {
        const list = out.get(r.kaboodle_id as string) ?? [];
        list.push(toMember(r));
        out.set(r.kaboodle_id as string, list);
      }
      return out;
    },
  };
}

export type KaboodleRepository = ReturnType<typeof createKaboodleRepository>;
