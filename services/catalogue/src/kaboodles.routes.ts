// /api/kaboodles*: the handlers bound to the declarations in kaboodle.api.ts. Every route is the
// signed-in owner's only; another user's kaboodle, document or item answers 404 like a missing one.
import type { TokenVerifier } from '@kaboodle/platform';
import { contentDisposition, createApiRouter, NotFoundError } from '@kaboodle/platform';
import type { DocumentRow, InventoryRow } from './catalogue-model.ts';
import type { DocumentRepository } from './document.repository.ts';
import { isEntityId } from './entity-query.ts';
import type { InventoryRepository } from './inventory.repository.ts';
import {
  addKaboodleMembers,
  createKaboodle,
  deleteKaboodle,
  exportKaboodle,
  getKaboodle,
  kaboodlesContaining,
  listKaboodles,
  removeKaboodleMembers,
  reorderKaboodle,
  setKaboodleMemberNote,
  updateKaboodle,
} from './kaboodle.api.ts';
import { kaboodleBibtex, kaboodleCsv, kaboodleJson } from './kaboodle-export.ts';
import type { MemberEntity, SmartSpec } from './kaboodle.repository.ts';
import { KABOODLE_NOT_FOUND } from './kaboodle.service.ts';
import type { KaboodleService, KaboodleWithMembers } from './kaboodle.service.ts';

export interface KaboodlesRouterDeps {
  kaboodles: KaboodleService;
  documents: DocumentRepository;
  inventory: InventoryRepository;
  verifier: TokenVerifier;
}

const link = (m: { type: string; id: string }) =>
  m.type === 'document' ? `/documents?open=${m.id}` : `/inventory/${m.id}`;
const imageUrl = (m: MemberEntity) => (m.has_image ? `/api/inventory/${m.id}/image` : null);

export function memberBody(m: MemberEntity & { score?: number }) {
  return {
    type: m.type,
    id: m.id,
    title: m.title,
    subtitle: m.subtitle,
    category: m.category,
    summary: m.summary,
    year: m.year,
    hashtags: m.hashtags,
    image_url: imageUrl(m),
    file_url: m.type === 'document' ? `/api/documents/${m.id}/file` : null,
    link: link(m),
    retail_price: m.retail_price,
    note: m.note,
    added_at: m.added_at?.toISOString() ?? null,
    position: m.position,
    ...(m.score !== undefined ? { score: Math.round(m.score * 10_000) / 10_000 } : {}),
  };
}

/** The chosen cover if it is still a member, else the first picture, else the first document. */
function coverOf(k: KaboodleWithMembers) {
  const chosen = k.cover
    ? k.members.find((m) => m.type === k.cover!.type && m.id === k.cover!.id)
    : undefined;
  const m = chosen ?? k.members.find((x) => x.has_image) ?? k.members.find((x) => x.type === 'document');
  if (!m) return null;
  return { type: m.type, id: m.id, title: m.title, image_url: imageUrl(m), excerpt: m.excerpt.slice(0, 400) };
}

const smartBody = (s: SmartSpec | null) =>
  s
    ? {
        query: s.query,
        search_type: s.search_type,
        types: s.types,
        category: s.category ?? null,
        kaboodle_id: s.kaboodle_id ?? null,
      }
    : null;

export function summaryBody(k: KaboodleWithMembers) {
  return {
    id: k.id,
    name: k.name,
    description: k.description,
    smart: smartBody(k.smart),
    member_count: k.documents + k.items,
    document_count: k.documents,
    item_count: k.items,
    cover: coverOf(k),
    created_at: k.created_at.toISOString(),
    updated_at: k.updated_at.toISOString(),
    version: k.version,
  };
}

export const detailBody = (k: KaboodleWithMembers) => ({
  ...summaryBody(k),
  members: k.members.map(memberBody),
});

/** A file name from the kaboodle's name: kaboodle-summer-fair.csv */
function fileName(name: string, ext: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .slice(0, 60);
  return `kaboodle-${slug || 'export'}.${ext}`;
}

export function createKaboodlesRouter(deps: KaboodlesRouterDeps) {
  const { kaboodles } = deps;
  const api = createApiRouter({ verifier: deps.verifier });
  const own = (id: string) => {
    if (!isEntityId(id)) throw new NotFoundError(KABOODLE_NOT_FOUND);
    return id;
  };
  const smartOf = (s: {
    query: string;
    search_type: SmartSpec['search_type'];
    types: SmartSpec['types'];
    category?: string | null | undefined;
    kaboodle_id?: string | null | undefined;
  }): SmartSpec => ({
    query: s.query,
    search_type: s.search_type,
    types: [...new Set(s.types)],
    category: s.category ? s.category : null,
    kaboodle_id: s.kaboodle_id ? s.kaboodle_id.toLowerCase() : null,
  });

  api.handle(listKaboodles, async ({ user, reply }) => {
    const list = await kaboodles.list(user.id);
    reply(200, { kaboodles: list.map(summaryBody) });
  });

  api.handle(createKaboodle, async ({ user, body, reply }) => {
    const id = await kaboodles.create(user.id, {
      name: body.name,
      description: body.description,
      smart: body.smart ? smartOf(body.smart) : null,
      members: body.members,
    });
    reply(201, detailBody(await kaboodles.get(user.id, id)));
  });

  api.handle(kaboodlesContaining, async ({ user, query, reply }) => {
    reply(200, { kaboodles: await kaboodles.containing(user.id, { type: query.type, id: query.id }) });
  });

  api.handle(getKaboodle, async ({ user, params, reply }) => {
    reply(200, detailBody(await kaboodles.get(user.id, own(params.id))));
  });

  api.handle(updateKaboodle, async ({ user, params, body, reply }) => {
    const id = own(params.id);
    await kaboodles.update(user.id, id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.cover !== undefined ? { cover: body.cover } : {}),
      ...(body.smart !== undefined ? { smart: smartOf(body.smart) } : {}),
    });
    reply(200, detailBody(await kaboodles.get(user.id, id)));
  });

  api.handle(deleteKaboodle, async ({ user, params, res }) => {
    await kaboodles.delete(user.id, own(params.id));
    res.status(204).end();
  });

  api.handle(addKaboodleMembers, async ({ user, params, body, reply }) => {
    const id = own(params.id);
    const result = await kaboodles.addMembers(user.id, id, body.members);
    reply(200, { ...result, kaboodle: detailBody(await kaboodles.get(user.id, id)) });
  });

  api.handle(removeKaboodleMembers, async ({ user, params, body, reply }) => {
    const id = own(params.id);
    const result = await kaboodles.removeMembers(user.id, id, body.members);
    reply(200, { ...result, kaboodle: detailBody(await kaboodles.get(user.id, id)) });
  });

  api.handle(setKaboodleMemberNote, async ({ user, params, body, reply }) => {
    const id = own(params.id);
    await kaboodles.setNote(user.id, id, { type: params.type, id: params.entityId }, body.note);
    reply(200, detailBody(await kaboodles.get(user.id, id)));
  });

  api.handle(reorderKaboodle, async ({ user, params, body, reply }) => {
    const id = own(params.id);
    await kaboodles.reorder(user.id, id, body.members);
    reply(200, detailBody(await kaboodles.get(user.id, id)));
  });

  api.handle(exportKaboodle, async ({ user, params, query, res }) => {
    const k = await kaboodles.get(user.id, own(params.id));
    const send = (type: string, ext: string, text: string) => {
      res
        .status(200)
        .set({
          'Content-Type': `${type}; charset=utf-8`,
          'Content-Disposition': contentDisposition('attachment', fileName(k.name, ext)),
          'X-Content-Type-Options': 'nosniff',
          'Cache-Control': 'no-store',
        })
        .send(text);
    };
    if (query.format === 'csv') {
      send('text/csv', 'csv', kaboodleCsv(k.members, query.bom === '1' || query.bom === 'true'));
      return;
    }
    // Full records, read one by one (a kaboodle holds at most 2,000): the owner's only.
    const records = new Map<string, DocumentRow | InventoryRow>();
    for (const m of k.members) {
      if (query.format === 'bibtex' && m.type !== 'document') continue;
      const row =
        m.type === 'document'
          ? await deps.documents.findForOwner(user.id, m.id)
          : await deps.inventory.findForOwner(user.id, m.id);
      if (row) records.set(`${m.type}:${m.id}`, row);
    }
    if (query.format === 'json') {
      send('application/json', 'json', kaboodleJson(summaryBody(k), k.members, records));
      return;
    }
    const docs = k.members.flatMap((m) => {
      const row = records.get(`document:${m.id}`);
      return m.type === 'document' && row ? [row as DocumentRow] : [];
    });
    send('application/x-bibtex', 'bib', kaboodleBibtex(k.name, docs));
  });

  return { router: api.router, operations: api.operations };
}
