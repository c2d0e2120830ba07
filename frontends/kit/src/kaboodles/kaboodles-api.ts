// The kaboodle calls every remote makes (GET/POST/PATCH/PUT/DELETE /api/kaboodles*), typed with the
// types generated from the OpenAPI document (Kaboodle, KaboodleSummary, KaboodleMember), so a change
// to the catalogue's declarations shows here at compile time.
import { api } from '../api/api-client.ts';
import { ApiError } from '../api/api-error.ts';
import type { ApiSchema } from '../api/api-types.ts';

type Summary = ApiSchema<'KaboodleSummary'>;

export type MemberRef = ApiSchema<'KaboodleMemberRef'>;
export type EntityType = MemberRef['type'];
/** A smart kaboodle's saved search, as the server answers it (every field present). */
export type SmartSearch = NonNullable<Summary['smart']>;
export type KaboodleCover = NonNullable<Summary['cover']>;
export type KaboodleSummary = Summary;
export type KaboodleMember = ApiSchema<'KaboodleMember'>;
export type Kaboodle = ApiSchema<'Kaboodle'>;

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
