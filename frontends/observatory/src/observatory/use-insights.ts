// The observatory's data: GET /api/insights once, again on Refresh and after a review action.
import { useCallback, useEffect, useRef, useState } from 'react';
import { insightsApi, kaboodleErrorText, type Insights } from '@kaboodle/kit';

export function useInsights(): {
  insights: Insights | null;
  error: string | null;
  refreshing: boolean;
  refresh: () => void;
} {
  const [insights, setInsights] = useState<Insights | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const current = useRef<AbortController | null>(null);

  const load = useCallback(() => {
    current.current?.abort();
    const ctl = new AbortController();
    current.current = ctl;
    setRefreshing(true);
    insightsApi
      .overview({ period: 'week', periods: 12 }, ctl.signal)
      .then((i) => {
        setInsights(i);
        setError(null);
      })
      .catch((err: unknown) => {
        if (!ctl.signal.aborted) setError(kaboodleErrorText(err));
      })
      .finally(() => {
        if (current.current === ctl) setRefreshing(false);
      });
  }, []);

  useEffect(() => {
    load();
    return () => current.current?.abort();
  }, [load]);

  return { insights, error, refreshing, refresh: load };
}
