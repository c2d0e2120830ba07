// An in-test stand-in for an Elasticsearch cluster: a real HTTP server speaking the REST calls the
// search index adapter makes while replicas share an index through a reindex, with the semantics
// the reindex protocol relies on — aliases resolved at request time and moved atomically, bulk
// writes with external versions (409 when the index holds that version or newer), require_alias,
// create-if-absent and sequence-number-conditional documents (the lease), _reindex of tombstones and
// delete_by_query. It is NOT Elasticsearch: no query semantics (search, kNN, BM25), no mappings or
// analysis, one node (an alias update is visible to the next request at once), no refresh delay.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface StoredDoc {
  source: Record<string, unknown>;
  version: number;
  seqNo: number;
}

interface Index {
  meta: Record<string, unknown> | undefined;
  docs: Map<string, StoredDoc>;
}

export interface ElasticsearchStandIn {
  readonly url: string;
  readonly indices: Map<string, Index>;
  readonly aliases: Map<string, Set<string>>;
  /** Requests received, by `METHOD path` (for the test's report). */
  readonly requests: string[];
  /** The documents of the one index an alias (or index name) resolves to. */
  docsOf(name: string): Map<string, StoredDoc>;
  close(): Promise<void>;
}

class HttpError extends Error {
  readonly status: number;
  readonly type: string;
  constructor(status: number, type: string, message: string) {
    super(message);
    this.status = status;
    this.type = type;
  }
}

export async function startElasticsearchStandIn(): Promise<ElasticsearchStandIn> {
  const indices = new Map<string, Index>();
  const aliases = new Map<string, Set<string>>();
  const requests: string[] = [];
  let seqNo = 0;

  const resolve = (name: string): string[] => {
    if (indices.has(name)) return [name];
    const on = aliases.get(name);
    if (on && on.size > 0) return [...on];
    throw new HttpError(404, 'index_not_found_exception', `no such index [${name}]`);
  };
  /** Writes through an alias need exactly one index behind it. */
  const writeIndex = (name: string): Index => {
    const names = resolve(name);
    if (names.length !== 1)
      throw new HttpError(400, 'illegal_argument_exception', `no write index is defined for alias [${name}]`);
    return indices.get(names[0]!)!;
  };
  const create = (name: string, meta?: Record<string, unknown>): Index => {
    if (indices.has(name))
      throw new HttpError(400, 'resource_already_exists_exception', `index [${name}] exists`);
    if (aliases.has(name) && aliases.get(name)!.size > 0)
      throw new HttpError(400, 'invalid_index_name_exception', `[${name}] is an alias`);
    const index = { meta, docs: new Map<string, StoredDoc>() };
    indices.set(name, index);
    return index;
  };
  /** External versioning: a write wins only with a version above the stored one. */
  const putVersioned = (
    index: Index,
    id: string,
    source: Record<string, unknown>,
    version: number,
  ): number => {
    const held = index.docs.get(id);
    if (held && held.version >= version) return 409;
    index.docs.set(id, { source, version, seqNo: ++seqNo });
    return held ? 200 : 201;
  };

  function handle(method: string, url: URL, body: string): { status: number; json?: unknown } {
    const path = decodeURIComponent(url.pathname);
    const q = url.searchParams;
    const json = (): unknown => (body ? JSON.parse(body) : {});
    if (path === '/' && method === 'GET')
      return {
        status: 200,
        json: { name: 'stand-in', version: { number: '9.2.1', build_flavor: 'default' } },
      };
    if (path.startsWith('/_index_template/')) return { status: 200, json: { acknowledged: true } };
    if (path.startsWith('/_alias/')) {
      const name = path.slice('/_alias/'.length);
      const out: Record<string, { aliases: Record<string, object> }> = {};
      for (const [alias, on] of aliases) {
        const match = name.endsWith('*') ? alias.startsWith(name.slice(0, -1)) : alias === name;
        if (match) for (const i of on) (out[i] ??= { aliases: {} }).aliases[alias] = {};
      }
      if (!name.endsWith('*') && Object.keys(out).length === 0)
        throw new HttpError(404, 'aliases_not_found_exception', `alias [${name}] missing`);
      return { status: 200, json: out };
    }
    if (path === '/_aliases' && method === 'POST') {
      // Atomic: every action checked against a copy, then the copy becomes the state.
      const next = new Map([...aliases].map(([a, s]) => [a, new Set(s)]));
      for (const action of (json() as { actions: unknown }).actions as Array<
        Record<string, { index: string; alias: string; must_exist?: boolean }>
      >) {
        const [op, a] = Object.entries(action)[0]!;
        if (!indices.has(a.index))
          throw new HttpError(404, 'index_not_found_exception', `no such index [${a.index}]`);
        const set = next.get(a.alias) ?? new Set<string>();
        if (op === 'add') set.add(a.index);
        if (op === 'remove') {
          if (a.must_exist && !set.has(a.index))
            throw new HttpError(
              404,
              'aliases_not_found_exception',
              `alias [${a.alias}] missing on [${a.index}]`,
            );
          set.delete(a.index);
        }
        next.set(a.alias, set);
      }
      aliases.clear();
      for (const [a, s] of next) aliases.set(a, s);
      return { status: 200, json: { acknowledged: true } };
    }
    if (path === '/_reindex' && method === 'POST') {
      const b = json() as {
        source: { index: string; query?: { term?: { deleted?: boolean } } };
        dest: { index: string };
      };
      const from = writeIndex(b.source.index);
      const to = writeIndex(b.dest.index);
      let created = 0;
      let conflicts = 0;
      for (const [id, doc] of from.docs) {
        if (b.source.query?.term?.deleted === true && doc.source.deleted !== true) continue;
        const status = putVersioned(to, id, doc.source, doc.version);
        if (status === 409) conflicts++;
        else created++;
      }
      return { status: 200, json: { total: created + conflicts, created, version_conflicts: conflicts } };
    }
    const m = /^\/([^/]+)(\/.*)?$/.exec(path);
    const target = m?.[1] ?? '';
    const rest = m?.[2] ?? '';
    if (rest === '') {
      if (method === 'HEAD') return { status: indices.has(target) ? 200 : 404 };
      if (method === 'PUT') {
        const b = json() as {
          mappings?: { _meta?: Record<string, unknown> };
          aliases?: Record<string, object>;
        };
        create(target, b.mappings?._meta);
        for (const a of Object.keys(b.aliases ?? {}))
          aliases.set(a, (aliases.get(a) ?? new Set()).add(target));
        return { status: 200, json: { acknowledged: true, index: target } };
      }
      if (method === 'DELETE') {
        for (const name of resolve(target)) {
          indices.delete(name);
          for (const set of aliases.values()) set.delete(name);
        }
        return { status: 200, json: { acknowledged: true } };
      }
    }
    if (rest === '/_mapping')
      return {
        status: 200,
        json: Object.fromEntries(
          resolve(target).map((i) => [i, { mappings: { _meta: indices.get(i)!.meta } }]),
        ),
      };
    if (rest === '/_settings' || rest === '/_refresh') {
      resolve(target);
      return { status: 200, json: { acknowledged: true } };
    }
    if (rest === '/_bulk' && method === 'POST') {
      const lines = body.split('\n').filter((l) => l.trim() !== '');
      const items: unknown[] = [];
      let index: Index | undefined;
      let failure: HttpError | undefined;
      try {
        if (q.get('require_alias') === 'true' && !aliases.get(target)?.size)
          throw new HttpError(
            404,
            'index_not_found_exception',
            `[${target}] is not an alias (require_alias)`,
          );
        index = writeIndex(target);
      } catch (err) {
        failure = err as HttpError;
      }
      for (let i = 0; i < lines.length; i += 2) {
        const action = JSON.parse(lines[i]!) as { index: { _id: string; version: number } };
        const doc = JSON.parse(lines[i + 1]!) as Record<string, unknown>;
        if (failure) {
          items.push({
            index: {
              _id: action.index._id,
              status: failure.status,
              error: { type: failure.type, reason: failure.message },
            },
          });
          continue;
        }
        const status = putVersioned(index!, action.index._id, doc, action.index.version);
        items.push({
          index: {
            _id: action.index._id,
            status,
            ...(status === 409 && {
              error: { type: 'version_conflict_engine_exception', reason: 'version conflict' },
            }),
          },
        });
      }
      return {
        status: 200,
        json: {
          took: 1,
          errors: items.some((i) => (i as { index: { status: number } }).index.status >= 300),
          items,
        },
      };
    }
    if (rest === '/_delete_by_query' && method === 'POST') {
      const owner = (json() as { query: { term: { owner_id: string } } }).query.term.owner_id;
      let deleted = 0;
      for (const name of resolve(target))
        for (const [id, doc] of indices.get(name)!.docs)
          if (doc.source.owner_id === owner) {
            indices.get(name)!.docs.delete(id);
            deleted++;
          }
      return { status: 200, json: { deleted } };
    }
    const byId = /^\/_(doc|create)\/(.+)$/.exec(rest);
    if (byId) {
      const id = byId[2]!;
      const index =
        indices.get(target) ?? (method === 'GET' || method === 'DELETE' ? undefined : create(target));
      const held = index?.docs.get(id);
      const meta = (d: StoredDoc, result: string) => ({
        _index: target,
        _id: id,
        _seq_no: d.seqNo,
        _primary_term: 1,
        _version: d.version,
        result,
      });
      if (method === 'GET') {
        if (!held) throw new HttpError(404, 'not_found', `document [${id}] missing`);
        return { status: 200, json: { ...meta(held, 'found'), found: true, _source: held.source } };
      }
      if (q.has('if_seq_no') && (!held || String(held.seqNo) !== q.get('if_seq_no')))
        throw new HttpError(409, 'version_conflict_engine_exception', 'sequence number conflict');
      if (method === 'DELETE') {
        if (!held) throw new HttpError(404, 'not_found', `document [${id}] missing`);
        index!.docs.delete(id);
        return { status: 200, json: meta(held, 'deleted') };
      }
      if (byId[1] === 'create' && held)
        throw new HttpError(409, 'version_conflict_engine_exception', 'document exists');
      const doc = {
        source: JSON.parse(body) as Record<string, unknown>,
        version: (held?.version ?? 0) + 1,
        seqNo: ++seqNo,
      };
      index!.docs.set(id, doc);
      return { status: held ? 200 : 201, json: meta(doc, held ? 'updated' : 'created') };
    }
    throw new HttpError(400, 'unsupported_by_stand_in', `the stand-in does not implement ${method} ${path}`);
  }

  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      requests.push(`${req.method} ${url.pathname}`);
      let status: number;
      let json: unknown;
      try {
        ({ status, json } = handle(req.method ?? 'GET', url, body));
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        status = err.status;
        json = { error: { type: err.type, reason: err.message }, status: err.status };
      }
      res.writeHead(status, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' });
      res.end(json === undefined || req.method === 'HEAD' ? undefined : JSON.stringify(json));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    indices,
    aliases,
    requests,
    docsOf: (name) => indices.get(resolve(name)[0]!)!.docs,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
