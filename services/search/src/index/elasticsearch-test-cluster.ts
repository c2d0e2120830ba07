// A stand-in cluster for unit tests, on @elastic/elasticsearch-mock (the HTTP layer only; nothing
// here has Elasticsearch's query semantics). It keeps just enough state for the index lifecycle
// (indices, their `_meta`, aliases) and records every request, so tests assert exact bodies and
// script the answers to bulk, msearch, get and the rest.
import { createRequire } from 'node:module';
import { Client } from '@elastic/elasticsearch';
import type { ClientOptions, errors } from '@elastic/elasticsearch';

// The mock is CommonJS and recognises error answers by `instanceof` against the CommonJS build's
// ResponseError, a different class from the ESM build's (the dual-package hazard).
const require = createRequire(import.meta.url);
const cjs = require('@elastic/elasticsearch') as { errors: typeof errors };
interface MockLike {
  add(pattern: { method: string[]; path: string }, resolver: (params: never) => unknown): unknown;
  getConnection(): ClientOptions['Connection'];
}
const Mock = require('@elastic/elasticsearch-mock') as new () => MockLike;

export interface RecordedRequest {
  method: string;
  path: string;
  querystring: Record<string, string>;
  body: unknown;
}

export type Answer = Record<string, unknown> | unknown[] | string | InstanceType<typeof errors.ResponseError>;
export type Responder = (req: RecordedRequest) => Answer | undefined;

export function esError(
  statusCode: number,
  type: string,
  reason = type,
): InstanceType<typeof errors.ResponseError> {
  return new cjs.errors.ResponseError({
    body: { error: { type, reason }, status: statusCode },
    statusCode,
    headers: {},
    warnings: null,
    meta: {} as never,
  });
}

export interface TestCluster {
  client: Client;
  requests: RecordedRequest[];
  /** Requests whose path ends with the suffix (and method, when given). */
  find(suffix: string, method?: string): RecordedRequest[];
  indices: Map<string, { meta: Record<string, unknown> | undefined; body: unknown }>;
  aliases: Map<string, Set<string>>;
  /** Documents written with create/index/delete by id (the reindex lease), with their sequence numbers. */
  docs: Map<string, { source: unknown; seqNo: number }>;
  version: string;
  /** Scripted answers, tried in order before the built-in lifecycle handling. */
  on(responder: Responder): void;
}

const PATTERNS = [
  '/',
  '/_index_template/:name',
  '/_alias/:name',
  '/_aliases',
  '/_reindex',
  '/:index',
  '/:index/_mapping',
  '/:index/_bulk',
  '/:index/_msearch',
  '/:index/_search',
  '/:index/_count',
  '/:index/_stats/:metric',
  '/:index/_delete_by_query',
  '/:index/_settings',
  '/:index/_refresh',
  '/:index/_doc/:id',
  '/:index/_create/:id',
];

export function createTestCluster(version = '8.15.0'): TestCluster {
  const mock = new Mock();
  const requests: RecordedRequest[] = [];
  const responders: Responder[] = [];
  const indices = new Map<string, { meta: Record<string, unknown> | undefined; body: unknown }>();
  const aliases = new Map<string, Set<string>>();
  const docs = new Map<string, { source: unknown; seqNo: number }>();
  let seqNo = 0;
  const cluster: TestCluster = {
    client: new Client({ node: 'http://es.test:9200', Connection: mock.getConnection(), maxRetries: 0 }),
    requests,
    find: (suffix, method) =>
      requests.filter((r) => r.path.endsWith(suffix) && (method === undefined || r.method === method)),
    indices,
    aliases,
    docs,
    version,
    on: (r) => void responders.push(r),
  };

  const lifecycle = (req: RecordedRequest): Answer => {
    const { method, path } = req;
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (path === '/' && method === 'GET') {
      return {
        name: 'test',
        cluster_name: 'test',
        version: { number: cluster.version, build_flavor: 'default' },
      };
    }
    if (path.startsWith('/_index_template/')) return { acknowledged: true };
    if (path.startsWith('/_alias/')) {
      const name = decodeURIComponent(path.slice('/_alias/'.length));
      if (name.endsWith('*')) {
        // A wildcard answers 200 with whatever matches, possibly nothing (as Elasticsearch does).
        const out: Record<string, { aliases: Record<string, object> }> = {};
        for (const [a, on] of aliases)
          if (a.startsWith(name.slice(0, -1)))
            for (const i of on) (out[i] ??= { aliases: {} }).aliases[a] = {};
        return out;
      }
      const on = [...(aliases.get(name) ?? [])];
      if (on.length === 0) return esError(404, 'aliases_not_found_exception', `alias [${name}] missing`);
      return Object.fromEntries(on.map((i) => [i, { aliases: { [name]: {} } }]));
    }
    if (path === '/_aliases' && method === 'POST') {
      for (const action of (body.actions ?? []) as Array<Record<string, { index: string; alias: string }>>) {
        const [op, a] = Object.entries(action)[0]!;
        const set = aliases.get(a.alias) ?? new Set<string>();
        if (op === 'add') set.add(a.index);
        if (op === 'remove') set.delete(a.index);
        aliases.set(a.alias, set);
      }
      return { acknowledged: true };
    }
    const m = /^\/([^/]+)(\/.*)?$/.exec(path);
    const index = m ? decodeURIComponent(m[1]!) : '';
    const rest = m?.[2] ?? '';
    if (rest === '') {
      if (method === 'HEAD') return indices.has(index) ? '' : esError(404, 'index_not_found_exception');
      if (method === 'PUT') {
        const mappings = (body.mappings ?? {}) as Record<string, unknown>;
        indices.set(index, { meta: mappings._meta as Record<string, unknown> | undefined, body });
        for (const a of Object.keys((body.aliases ?? {}) as object)) {
          aliases.set(a, (aliases.get(a) ?? new Set()).add(index));
        }
        return { acknowledged: true, shards_acknowledged: true, index };
      }
      if (method === 'DELETE') {
        indices.delete(index);
        for (const set of aliases.values()) set.delete(index);
        return { acknowledged: true };
      }
    }
    const byId = /^\/_(doc|create)\/(.+)$/.exec(rest);
    if (byId) {
      const key = `${index}/${decodeURIComponent(byId[2]!)}`;
      const held = docs.get(key);
      const answer = (d: { seqNo: number }, result: string) => ({
        _index: index,
        _id: byId[2],
        _seq_no: d.seqNo,
        _primary_term: 1,
        _version: d.seqNo,
        result,
      });
      if (method === 'GET')
        return held
          ? { ...answer(held, 'found'), found: true, _source: held.source }
          : esError(404, 'not_found', 'document missing');
      const ifSeq = req.querystring['if_seq_no'];
      if (ifSeq !== undefined && (!held || String(held.seqNo) !== String(ifSeq)))
        return esError(409, 'version_conflict_engine_exception', 'sequence number conflict');
      if (method === 'DELETE') {
        if (!held) return esError(404, 'not_found', 'document missing');
        docs.delete(key);
        return answer(held, 'deleted');
      }
      if (byId[1] === 'create' && held) return esError(409, 'version_conflict_engine_exception', 'exists');
      const d = { source: req.body, seqNo: ++seqNo };
      docs.set(key, d);
      return answer(d, held ? 'updated' : 'created');
    }
    if (rest === '/_mapping') {
      const target = indices.has(index) ? [index] : [...(aliases.get(index) ?? [])];
      return Object.fromEntries(target.map((i) => [i, { mappings: { _meta: indices.get(i)?.meta } }]));
    }
    return esError(400, 'unscripted_request', `no answer scripted for ${method} ${path}`);
  };

  const handler = (params: {
    method: string;
    path: string;
    querystring?: Record<string, string>;
    body?: unknown;
  }) => {
    const req: RecordedRequest = {
      method: params.method,
      path: params.path,
      querystring: { ...(params.querystring ?? {}) },
      body: params.body ?? null,
    };
    requests.push(req);
    for (const r of responders) {
      const a = r(req);
      if (a !== undefined) return a;
    }
    return lifecycle(req);
  };
  for (const path of PATTERNS) {
    mock.add({ method: ['GET', 'POST', 'PUT', 'DELETE', 'HEAD'], path }, handler as never);
  }
  return cluster;
}

/** A bulk answer: one item per operation with the given statuses. */
export function bulkAnswer(index: string, statuses: number[]): Record<string, unknown> {
  return {
    took: 1,
    errors: statuses.some((s) => s >= 300),
    items: statuses.map((status, i) => ({
      index: {
        _index: index,
        _id: String(i),
        status,
        ...(status === 409 && {
          error: {
            type: 'version_conflict_engine_exception',
            reason: 'version conflict, current version is higher',
          },
        }),
        ...(status === 429 && { error: { type: 'es_rejected_execution_exception', reason: 'rejected' } }),
        ...(status === 400 && {
          error: { type: 'document_parsing_exception', reason: 'failed to parse field [vector]' },
        }),
      },
    })),
  };
}

/** A search answer with hits (`_id`, `_score`, `_source`, optional inner hits). */
export function hitsAnswer(hits: Array<Record<string, unknown>>): Record<string, unknown> {
  return { took: 1, timed_out: false, hits: { total: { value: hits.length, relation: 'eq' }, hits } };
}
