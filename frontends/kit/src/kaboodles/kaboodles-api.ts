// The kaboodle calls every remote makes (GET/POST/PATCH/PUT/DELETE /api/kaboodles*), typed after the
// catalogue's declarations (services/catalogue/src/kaboodle.api.ts; the OpenAPI document has them as
// Kaboodle, KaboodleSummary, KaboodleMember).
import { api } from '../api/api-client.ts';
import { ApiError } from '../api/api-error.ts';

export type EntityType = 'document' | 'inventory_item';

export interface MemberRef {
  type: EntityType;
  id: string;
}

export interface SmartSearch {
  query: string;
  search_type: 'semantic' | 'keyword' | 'hybrid';
  types: EntityType[];
  category: string | null;
}

export interface KaboodleCover {
  type: EntityType;
  id: string;
  title: string;
  image_url: string | null;
  excerpt: string;
}

export interface KaboodleSummary {
  id: string;
  name: string;
  description: string;
  smart: SmartSearch | null;
  member_count: number;
  document_count: number;
  item_count: number;
  cover: KaboodleCover | null;
  created_at: string;
  updated_at: string;
  version: number;
}

export interface KaboodleMember extends MemberRef {
  title: string;
  subtitle: string;
  category: string;
  summary: string;
  year: number | null;
  hashtags: string[];
  image_url: string | null;
  file_url: string | null;
  link: string;
  retail_price: number | null;
  note: string;
  added_at: string | null;
  position: number;
  score?: number;
}

export interface Kaboodle extends KaboodleSummary {
  members: KaboodleMember[];
}

export type ExportFormat = 'csv' | 'json' | 'bibtex';

const path = (id: string, rest = '') => `/api/kaboodles/${encodeURIComponent(id)}${rest}`;

export const kaboodlesApi = {
  list: async (signal?: AbortSignal) =>
    (await api.get<{ kaboodles: KaboodleSummary[] }>('/api/kaboodles', signal ? { signal } : undefined))
      .kaboodles,
  get: (id: string, signal?: AbortSignal) => api.get<Kaboodle>(path(id), signal ? { signal } : undefined),
  create: (body: {
    name: string;
    description?: string;
    members?: MemberRef[];
    smart?: Partial<SmartSearch> & { query: string };
  }) => api.post<Kaboodle>('/api/kaboodles', body),
  update: (
    id: string,
    body: {
      name?: string;
      description?: string;
      cover?: MemberRef | null;
      smart?: Partial<SmartSearch> & { query: string };
    },
  ) => api.patch<Kaboodle>(path(id), body),
  remove: (id: string) => api.delete<void>(path(id)),
  addMembers: (id: string, members: MemberRef[]) =>
    api.post<{ added: number; already: number; kaboodle: Kaboodle }>(path(id, '/members'), { members }),
  removeMembers: (id: string, members: MemberRef[]) =>
    api.post<{ removed: number; kaboodle: Kaboodle }>(path(id, '/members/remove'), { members }),
  reorder: (id: string, members: MemberRef[]) => api.put<Kaboodle>(path(id, '/order'), { members }),
  setNote: (id: string, member: MemberRef, note: string) =>
    api.put<Kaboodle>(path(id, `/members/${member.type}/${encodeURIComponent(member.id)}/note`), { note }),
  containing: async (member: MemberRef) =>
    (
      await api.get<{ kaboodles: { id: string; name: string }[] }>('/api/kaboodles/containing', {
        query: { ...member },
      })
    ).kaboodles,
  exportUrl: (id: string, format: ExportFormat) => api.url(path(id, '/export'), { format }),
};

/** The server's sentence for a refused change (409/404/400), else the spec's catalogue text. */
export function kaboodleErrorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

/** "2 documents and 1 item" for cards and confirmations. */
export function countLabel(documents: number, items: number): string {
  const parts = [
    documents ? `${documents} document${documents === 1 ? '' : 's'}` : '',
    items ? `${items} item${items === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(' and ') : 'Empty';
}
