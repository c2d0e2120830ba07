// HTTP API of the search service (contracts: POST /api/search, POST /api/documents/search, related,
// duplicates, neighbours; admin rebuild). Every route needs a signed-in user and searches only that
// user's entities: the owner id comes from the verified token, never from the request.
import express from 'express';
import type { Request, Response, Router } from 'express';
import { ACCESS_DENIED_MESSAGE, getUser, NotAllowedError, requireUser } from '@kaboodle/platform';
import type { Logger, TokenVerifier } from '@kaboodle/platform';
import type { SearchHit } from './index/search-index.port.ts';
import type { RebuildReport, Rebuilder } from './rebuild.service.ts';
import {
  parseDocumentSearchRequest,
  parseEntityRequest,
  parseNeighboursRequest,
  parseSearchRequest,
} from './search-request.ts';
import type { SearchService, Timed } from './search.service.ts';

/** The unified search result (spec §3): documents carry `title`, inventory items `name`. */
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
}

export function createSearchRouter({ verifier, service, rebuilder, logger }: SearchRouterDeps): Router {
  const router = express.Router();
  const auth = requireUser(verifier);
  const owner = (req: Request) => getUser(req).id;

  router.post('/api/search', auth, express.json(), async (req, res) => {
    const started = performance.now();
    const request = parseSearchRequest(req.body);
    const timed = await service.search(owner(req), request);
    setTiming(res, timed, started);
    res.json({ results: timed.value.map(hitBody) });
  });

  router.post('/api/documents/search', auth, express.json(), async (req, res) => {
    const started = performance.now();
    const request = parseDocumentSearchRequest(req.body);
    const timed = await service.searchDocuments(owner(req), request);
    setTiming(res, timed, started);
    res.json({
      results: timed.value.map((h) => ({
        id: h.id,
        title: h.title,
        summary: h.description,
        excerpt: h.excerpt ?? '',
        score: Math.round(h.score * 10_000) / 10_000,
        url: h.url,
      })),
    });
  });

  router.get('/api/search/related', auth, async (req, res) => {
    const hits = await service.related(owner(req), parseEntityRequest(req.query, 10));
    res.json({ results: hits.map(hitBody) });
  });

  router.get('/api/search/duplicates', auth, async (req, res) => {
    const hits = await service.duplicates(owner(req), parseEntityRequest(req.query, 20));
    res.json({ results: hits.map(hitBody) });
  });

  router.post('/api/search/neighbours', auth, express.json(), async (req, res) => {
    const edges = await service.neighbours(owner(req), parseNeighboursRequest(req.body));
    res.json({ edges: edges.map((e) => ({ ...e, similarity: Math.round(e.similarity * 10_000) / 10_000 })) });
  });

  const admin = (req: Request) => {
    if (getUser(req).role !== 'admin') throw new NotAllowedError(ACCESS_DENIED_MESSAGE);
  };

  // A full rebuild from the catalogue: answers at once (202) and runs in the background; GET follows it.
  router.post('/api/search/admin/rebuild', auth, express.json(), async (req, res) => {
    admin(req);
    const { done } = rebuilder.start();
    done.catch((err: unknown) => logger.debug({ err }, 'rebuild ended with an error (GET reports it)'));
    res.status(202).json(rebuildBody(rebuilder.status()));
  });

  router.get('/api/search/admin/rebuild', auth, (req, res) => {
    admin(req);
    res.json(rebuildBody(rebuilder.status()));
  });

  return router;
}
