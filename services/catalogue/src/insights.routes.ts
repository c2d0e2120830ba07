// /api/insights*: the handlers bound to insights.api.ts. The owner comes from the verified token; every
// entity named in a request or an answer is that owner's.
import type { TokenVerifier } from '@kaboodle/platform';
import { createApiRouter } from '@kaboodle/platform';
import {
  dismissDuplicate,
  getDuplicates,
  getInsights,
  getRecommendations,
  getTrends,
  mergeDuplicate,
} from './insights.api.ts';
import type { DuplicatePair, InsightsService, Recommendation } from './insights.service.ts';
import type { MemberEntity } from './kaboodle.repository.ts';

export function entityBody(m: MemberEntity) {
  return {
    type: m.type,
    id: m.id,
    title: m.title,
    subtitle: m.subtitle,
    category: m.category,
    summary: m.summary.slice(0, 400),
    hashtags: m.hashtags,
    image_url: m.has_image ? `/api/inventory/${m.id}/image` : null,
    link: m.type === 'document' ? `/documents?open=${m.id}` : `/inventory/${m.id}`,
    created_at: m.created_at.toISOString(),
  };
}

const recommendationBody = (r: Recommendation) => ({
  entity: entityBody(r.entity),
  score: r.score,
  because: r.because,
});
const pairBody = (p: DuplicatePair) => ({
  a: entityBody(p.a),
  b: entityBody(p.b),
  similarity: p.similarity,
  reason: p.reason,
});

export function createInsightsRouter(deps: { insights: InsightsService; verifier: TokenVerifier }) {
  const { insights } = deps;
  const api = createApiRouter({ verifier: deps.verifier });

  api.handle(getInsights, async ({ user, query, reply, res }) => {
    const o = await insights.overview(user.id, {
      period: query.period,
      periods: query.periods,
      context: query.context,
      exclude: query.exclude,
    });
    // Where the time went, for browsers' devtools and the bench.
    res.set(
      'Server-Timing',
      Object.entries(o.timing)
        .map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`)
        .join(', '),
    );
    reply(200, {
      generated_at: new Date().toISOString(),
      library: o.library,
      trends: o.trends,
      recommendations: {
        available: o.recommendations.available,
        items: o.recommendations.items.map(recommendationBody),
      },
      duplicates: { available: o.duplicates.available, pairs: o.duplicates.pairs.map(pairBody) },
      diagnostics: o.diagnostics,
    });
  });

  api.handle(getTrends, async ({ user, query, reply }) => {
    reply(200, await insights.trends(user.id, query.period, query.periods));
  });

  api.handle(getRecommendations, async ({ user, query, reply }) => {
    const r = await insights.recommendations(user.id, query.context, query.exclude, query.limit);
    reply(200, { available: r.available, items: r.items.map(recommendationBody) });
  });

  api.handle(getDuplicates, async ({ user, reply }) => {
    const d = await insights.duplicates(user.id);
    reply(200, { available: d.available, pairs: d.pairs.map(pairBody) });
  });

  api.handle(dismissDuplicate, async ({ user, body, res }) => {
    await insights.dismiss(user.id, body.a, body.b);
    res.status(204).end();
  });

  api.handle(mergeDuplicate, async ({ user, body, reply }) => {
    const { removedFileId } = await insights.merge(user.id, body.keep, body.remove);
    reply(200, { kept: body.keep, removed: body.remove, removed_file_id: removedFileId });
  });

  return { router: api.router, operations: api.operations };
}
