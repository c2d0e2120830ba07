// /api/stats and /api/activity (declared in activity.api.ts): the dashboard's real figures and recent
// events, per user.
import { createApiRouter } from '@kaboodle/platform';
import type { ApiRouter, TokenVerifier } from '@kaboodle/platform';
import { getStats, listActivity } from './activity.api.ts';
import type { ActivityRepository } from './activity.repository.ts';

export function createActivityRouter(deps: {
  activity: ActivityRepository;
  verifier: TokenVerifier;
}): ApiRouter {
  const api = createApiRouter({ verifier: deps.verifier });

  api.handle(getStats, async ({ user, reply }) => {
    reply(200, await deps.activity.stats(user.id));
  });

  api.handle(listActivity, async ({ query, user, reply }) => {
    const offset = (query.page - 1) * query.limit;
    reply(200, { activity: await deps.activity.recent(user.id, query.limit, offset) });
  });

  return api;
}
