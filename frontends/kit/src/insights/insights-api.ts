// GET /api/insights* (the catalogue's insights, declared in services/catalogue/src/insights.api.ts) and
// the search service's related items, typed for the observatory, the vault and item pages.
import { api } from '../api/api-client.ts';
import type { EntityType, MemberRef } from '../kaboodles/kaboodles-api.ts';

export interface InsightEntity extends MemberRef {
  title: string;
  subtitle: string;
  category: string;
  summary: string;
  hashtags: string[];
  image_url: string | null;
  link: string;
  created_at: string;
}

export interface TrendSeries {
  key: string;
  total: number;
  counts: number[];
  documents: number;
  items: number;
  direction: 'rising' | 'falling' | 'steady';
  change: number;
}

export interface Trends {
  period: 'week' | 'month';
  buckets: string[];
  hashtags: TrendSeries[];
  categories: TrendSeries[];
  rising: string[];
  falling: string[];
}

export interface Recommendation {
  entity: InsightEntity;
  score: number;
  because: { type: EntityType; id: string; title: string };
}

export interface DuplicatePair {
  a: InsightEntity;
  b: InsightEntity;
  similarity: number;
  reason: 'identical_file' | 'similar_content';
}

export interface LibraryCounts {
  documents: number;
  document_categories: number;
  inventory_items: number;
  images: number;
  images_analysed: number;
  image_types: number;
  kaboodles: number;
  files_waiting: number;
  files_waiting_images: number;
  files_completed: number;
  files_failed: number;
  oldest_waiting_ms: number;
  recent_processing_ms: number | null;
}

export interface Diagnostics {
  processing: {
    processed_share: number | null;
    files_waiting: number;
    files_completed: number;
    files_failed: number;
    pipeline_lag_ms: number;
    recent_processing_ms: number | null;
  };
  index: { entities: number; size_bytes: number } | null;
  memory: { rss_bytes: number; heap_used_bytes: number; system_total_bytes: number; share: number };
}

export interface Insights {
  generated_at: string;
  library: LibraryCounts;
  trends: Trends;
  recommendations: { available: boolean; items: Recommendation[] };
  duplicates: { available: boolean; pairs: DuplicatePair[] };
  diagnostics: Diagnostics;
}

/** A related item as GET /api/search/related answers it (spec 3's unified search result). */
export interface RelatedHit {
  type: EntityType;
  id: string;
  title: string;
  name: string;
  description: string;
  image_url: string;
  score: number;
  category: string;
}

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
    api.get<{ available: boolean; items: Recommendation[] }>('/api/insights/recommendations', {
      query: { context: refs(q.context), exclude: refs(q.exclude), limit: q.limit },
      ...(signal ? { signal } : {}),
    }),
  duplicates: (signal?: AbortSignal) =>
    api.get<{ available: boolean; pairs: DuplicatePair[] }>(
      '/api/insights/duplicates',
      signal ? { signal } : undefined,
    ),
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
