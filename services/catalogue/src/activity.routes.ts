// /api/stats and /api/activity: the dashboard's real figures and recent events, per user.
import express from 'express';
import type { Router } from 'express';
import { getUser, requireUser } from '@kaboodle/platform';
import type { TokenVerifier } from '@kaboodle/platform';
import type { ActivityRepository } from './activity.repository.ts';
import { parseLimit } from './request-input.ts';

export function createActivityRouter(deps: {
  activity: ActivityRepository;
  verifier: TokenVerifier;
}): Router {
  const router = express.Router();
  const auth = requireUser(deps.verifier);

  router.get('/api/stats', auth, async (req, res) => {
    res.json(await deps.activity.stats(getUser(req).id));
  });

  router.get('/api/activity', auth, async (req, res) => {
    const limit = parseLimit(req.query as Record<string, unknown>);
    res.json({ activity: await deps.activity.recent(getUser(req).id, limit) });
  });

  return router;
}
