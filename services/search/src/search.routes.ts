// HTTP API of the search service (search.api.ts declares it: POST /api/search, POST /api/documents/search,
// related, duplicates, neighbours; admin rebuild). Every route needs a signed-in user and searches only that
// user's entities: the owner id comes from the verified token, never from the request.
import type { Response } from 'express';
import { createApiRouter, requireAdminClaim } from '@kaboodle/platform';
import type { ApiRouter, Logger, TokenVerifier } from '@kaboodle/platform';
import type { SearchHit } from './index/search-index.port.ts';
import { GOOD_MATCH } from './ranking.ts';
import type { RebuildReport, Rebuilder } from './rebuild.service.ts';
import { admitHttp } from './search-admission.ts';
import type { SearchAdmission, BUSY_BODY } from './search-admission.ts';
import {
  documentNeighbours,
  duplicateEntities,
  DUPLICATES_LIMIT,
  getRebuild,
  RELATED_LIMIT,
  relatedEntities,
  search,
  searchDocumentsSemantic,
  startRebuild,
} from './search.api.ts';
import { toEntityRequest } from './search-request.ts';
import type { SearchService, Timed } from './search.service.ts';

/** The unified search result (docs/product.md#data): documents carry `title`, inventory items `name`. */
export function hitBody(h: SearchHit) {
  const isDocument = h.entityType === 'document';
  return {
    type: h.entityType,
    id: h.id,
    title: isDocument ? h.title : '',
    name: isDocument ? '' : h.title,
    description: h.description,
    content: h.content,
    url: h.url,
    image_url: h.imageUrl,
    score: Math.round(h.score * 10_000) / 10_000,
    category: h.category,
    hashtags: h.hashtags,
    ...(h.excerpt !== undefined ? { excerpt: h.excerpt } : {}),
  };
}

function rebuildBody(r: RebuildReport) {
  return {
    running: r.running,
    started_at: r.startedAt?.toISOString() ?? null,
    finished_at: r.finishedAt?.toISOString() ?? null,
    read: r.read,
    applied: r.applied,
    stale: r.stale,
    skipped: r.skipped,
    removed: r.removed,
    error: r.error,
  };
}

/** Where the time went, for browsers' devtools and the HTTP bench (embed, index, total). */
function setTiming(res: Response, timed: Timed<unknown>, startedAt: number): void {
  const total = performance.now() - startedAt;
  res.set(
    'Server-Timing',
    `embed;dur=${timed.timing.embed.toFixed(2)}, index;dur=${timed.timing.index.toFixed(2)}, total;dur=${total.toFixed(2)}`,
  );
  if (timed.degraded) res.set('X-Search-Degraded', timed.degraded);
  if (timed.cached) res.set('X-Search-Cache', 'hit');
}

export interface SearchRouterDeps {
  verifier: TokenVerifier;
  service: SearchService;
  rebuilder: Rebuilder;
  logger: Logger;
  /** Bounds the searches running and waiting (refused past it: 503 with Retry-After). */
  admission: SearchAdmission;
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;
/** Below the calibrated threshold a hit is a weak match: the vault says "no good match". */
const matchOf = (score: number): 'good' | 'weak' => (score >= GOOD_MATCH ? 'good' : 'weak');

export function createSearchRouter({
  verifier,
  service,
  rebuilder,
  logger,
  admission,
}: SearchRouterDeps): ApiRouter {
  // Admin routes check the token's role: search has no user store of its own to ask.
  const api = createApiRouter({ verifier, requireAdmin: requireAdminClaim });

  const admitted = <T>(
    res: Response,
    reply: (status: 503, body: typeof BUSY_BODY) => void,
    work: () => Promise<T>,
  ) => admitHttp(admission, res, reply, work);

  api.handle(search, async ({ body, res, user, reply }) => {
    const started = performance.now();
    const timed = await admitted(res, reply, () => service.search(user.id, body));
    if (!timed) return;
    setTiming(res, timed, started);
    reply(200, { results: timed.value.map((h) => ({ ...hitBody(h), match: matchOf(h.score) })) });
  });

  api.handle(searchDocumentsSemantic, async ({ body, res, user, reply }) => {
    const started = performance.now();
    const timed = await admitted(res, reply, () => service.searchDocuments(user.id, body));
    if (!timed) return;
    setTiming(res, timed, started);
    reply(200, {
      results: timed.value.map((h) => ({
        id: h.id,
        title: h.title,
        summary: h.description,
        excerpt: h.excerpt ?? '',
        score: round4(h.score),
        match: matchOf(h.score),
        url: h.url,
      })),
    });
  });

  api.handle(relatedEntities, async ({ query, res, user, reply }) => {
    const hits = await admitted(res, reply, () =>
      service.related(user.id, toEntityRequest(query, RELATED_LIMIT)),
    );
    if (!hits) return;
    reply(200, { results: hits.map(hitBody) });
  });

  api.handle(duplicateEntities, async ({ query, res, user, reply }) => {
    const hits = await admitted(res, reply, () =>
      service.duplicates(user.id, toEntityRequest(query, DUPLICATES_LIMIT)),
    );
    if (!hits) return;
    reply(200, { results: hits.map(hitBody) });
  });

  api.handle(documentNeighbours, async ({ body, res, user, reply }) => {
    const edges = await admitted(res, reply, () => service.neighbours(user.id, body));
    if (!edges) return;
    reply(200, { edges: edges.map((e) => ({ ...e, similarity: round4(e.similarity) })) });
  });

  // A full rebuild from the catalogue: answers at once (202) and runs in the background; GET follows it.
  api.handle(startRebuild, ({ reply }) => {
    const { done } = rebuilder.start();
    done.catch((err: unknown) => logger.debug({ err }, 'rebuild ended with an error (GET reports it)'));
    reply(202, rebuildBody(rebuilder.status()));
  });

  api.handle(getRebuild, ({ reply }) => {
    reply(200, rebuildBody(rebuilder.status()));
  });

  return api;
}
