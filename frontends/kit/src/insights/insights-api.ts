// GET /api/insights* (the catalogue's insights, declared in services/catalogue/src/insights.api.ts) and
// the search service's related items, typed for the observatory, the vault and item pages.
import { api } from '../api/api-client.ts';
import type { ApiSchema } from '../api/api-types.ts';
import type { MemberRef } from '../kaboodles/kaboodles-api.ts';

export type InsightEntity = ApiSchema<'InsightEntity'>;
export type Trends = ApiSchema<'Trends'>;
export type TrendSeries = Trends['hashtags'][number];
export type Recommendation = ApiSchema<'Recommendations'>['items'][number];
export type DuplicatePair = ApiSchema<'NearDuplicates'>['pairs'][number];
export type Insights = ApiSchema<'Insights'>;
export type LibraryCounts = Insights['library'];
export type Diagnostics = Insights['diagnostics'];

/**
 * A related item as GET /api/search/related answers it (the unified search result of docs/product.md#data).
 */
export type RelatedHit = ApiSchema<'SearchResult'>;

const refs = (list: readonly MemberRef[] | undefined) =>
  list && list.length
    ? list
        .slice(0, 20)
        .map((r) => `${r.type}:${r.id}`)
        .join(',')
    : undefined;

export const insightsApi = {
  overview: (
    q: { period?: 'week' | 'month'; periods?: number; context?: MemberRef[] } = {},
    signal?: AbortSignal,
  ) =>
    api.get<Insights>('/api/insights', {
      query: { period: q.period, periods: q.periods, context: refs(q.context) },
      ...(signal ? { signal } : {}),
    }),
  trends: (period: 'week' | 'month', periods: number, signal?: AbortSignal) =>
    api.get<Trends>('/api/insights/trends', { query: { period, periods }, ...(signal ? { signal } : {}) }),
  recommendations: (
    q: { context?: MemberRef[]; exclude?: MemberRef[]; limit?: number },
    signal?: AbortSignal,
  ) =>
    api.get<ApiSchema<'Recommendations'>>('/api/insights/recommendations', {
      query: { context: refs(q.context), exclude: refs(q.exclude), limit: q.limit },
      ...(signal ? { signal } : {}),
    }),
  duplicates: (signal?: AbortSignal) =>
    api.get<ApiSchema<'NearDuplicates'>>('/api/insights/duplicates', signal ? { signal } : undefined),
  dismiss: (a: MemberRef, b: MemberRef) => api.post<void>('/api/insights/duplicates/dismiss', { a, b }),
  merge: (keep: MemberRef, remove: MemberRef) =>
    api.post<{ removed_file_id: string | null }>('/api/insights/duplicates/merge', { keep, remove }),
  deleteFile: (fileId: string) => api.delete<unknown>(`/process/files/${encodeURIComponent(fileId)}`),
  related: async (ref: MemberRef, limit = 6, signal?: AbortSignal) =>
    (
      await api.get<{ results?: RelatedHit[] }>('/api/search/related', {
        query: { type: ref.type, id: ref.id, limit },
        ...(signal ? { signal } : {}),
      })
    ).results ?? [],
};

/** Where an entity's page is: the vault's reader for documents, the item page for items. */
export const entityLink = (ref: MemberRef) =>
  ref.type === 'document'
    ? `/documents?open=${encodeURIComponent(ref.id)}`
    : `/inventory/${encodeURIComponent(ref.id)}`;
