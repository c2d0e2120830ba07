// Every call the vault makes (contracts: catalogue and search), with the cache rules
// (docs/product.md#limits).
import {
  api,
  ApiError,
  listClient,
  type ApiBody,
  type ApiReply,
  type ApiSchema,
  type ListPage,
} from '@kaboodle/kit';
import {
  asDocument,
  type DocumentDetail,
  type SearchHit,
  type SemanticResult,
  type SortState,
  type VaultDocument,
} from './document-types.ts';
import { PAGE_SIZE, sortParams } from './document-list.ts';

export interface ListQuery {
  keyword: string;
  category: string;
  sort: SortState;
}

/** Cache keys carry the user, so a shared browser never shows one person another's list. */
function userPrefix(userId: string | undefined): string {
  return `${userId ?? 'anonymous'}:`;
}

function filterParams(q: ListQuery) {
  const keyword = q.keyword.trim();
  return { ...(keyword ? { query: keyword } : {}), category: q.category || undefined, ...sortParams(q.sort) };
}

/**
 * One page of the vault list: the keyword search when a keyword is present, else the plain list.
 * Non-appending loads may come from the cache; scroll loads never do (docs/product.md#calls).
 */
export async function fetchDocumentPage(
  q: ListQuery,
  page: number,
  opts: { userId?: string; append: boolean; fresh?: boolean; signal?: AbortSignal },
): Promise<ListPage<VaultDocument>> {
  const params = filterParams(q);
  const path = params.query ? '/api/documents/search' : '/api/documents';
  const result = await listClient.getList<unknown>(path, {
    query: { ...params, page, limit: PAGE_SIZE },
    ...(opts.signal ? { signal: opts.signal } : {}),
    cache: {
      namespace: 'documents',
      keyPrefix: userPrefix(opts.userId),
      bypassRead: opts.append || opts.fresh === true,
    },
  });
  return { ...result, items: result.items.map(asDocument).filter((d): d is VaultDocument => d !== null) };
}

/** How many documents the user has in all (no filter): the vault's footer keeps it while filtering. */
export async function fetchLibraryTotal(signal?: AbortSignal): Promise<number | null> {
  const page = await listClient.getList<unknown>('/api/documents', {
    query: { page: 1, limit: 1 },
    ...(signal ? { signal } : {}),
  });
  return page.total;
}

/** The user's categories; a failure throws (the vault says so in its banner). */
export async function fetchCategories(): Promise<string[]> {
  const body = await api.get<Partial<ApiReply<'listDocumentCategories'>>>('/api/documents/categories');
  return (body.categories ?? []).map((c) => (typeof c.name === 'string' ? c.name : '')).filter(Boolean);
}

/** docs/product.md#limits: semantic results are cached 5 minutes, keyed by the query text. */
export async function semanticSearch(query: string, userId?: string): Promise<SemanticResult[]> {
  const key = `${userPrefix(userId)}vault-semantic:${query}`;
  const hit = api.cache.get<SemanticResult[]>('search', key);
  if (Array.isArray(hit)) return hit;
  const request: ApiBody<'searchDocumentsSemantic'> = { query, limit: PAGE_SIZE };
  const body = await api.post<Partial<ApiReply<'searchDocumentsSemantic'>>>('/api/documents/search', request);
  const results = Array.isArray(body?.results) ? body.results : [];
  api.cache.set('search', key, results);
  return results;
}

export async function fetchDocument(id: string): Promise<DocumentDetail> {
  const body = await api.get<unknown>(`/api/documents/${encodeURIComponent(id)}`);
  const doc = asDocument(body);
  if (!doc) throw new ApiError({ status: 200, kind: 'invalid-response', message: 'Invalid API response' });
  return { ...(body as DocumentDetail), ...doc };
}

/** PATCH /api/documents/{id}: any of the document's fields (the generated DocumentPatch). */
export type DocumentPatch = ApiBody<'updateDocument'>;

export async function updateDocument(id: string, patch: DocumentPatch): Promise<DocumentDetail> {
  const body = await api.patch<unknown>(`/api/documents/${encodeURIComponent(id)}`, patch);
  const doc = asDocument(body);
  if (!doc) throw new ApiError({ status: 200, kind: 'invalid-response', message: 'Invalid API response' });
  // A correction changes what lists and searches return: drop the cached pages.
  api.cache.clear('documents');
  api.cache.clear('search');
  return { ...(body as DocumentDetail), ...doc };
}

export function fileUrl(id: string): string {
  return api.url(`/api/documents/${encodeURIComponent(id)}/file`);
}

/** The original shown inline in the reader (ingestion serves it inline; the document id is the file id). */
export function previewUrl(id: string): string {
  return api.url(`/process/files/${encodeURIComponent(id)}/content`);
}

export function exportUrl(format: 'csv' | 'json', q: ListQuery): string {
  return api.url('/api/documents/export', { format, ...filterParams(q) });
}

/**
 * Opens a document's file in a new tab (docs/product.md#calls); failures are only logged
 * (docs/product.md#messages).
 */
export function openDownload(id: string, url?: string): void {
  try {
    const target = url && url.startsWith('/api/documents/') ? api.url(url) : fileUrl(id);
    window.open(target, '_blank', 'noopener');
  } catch (err) {
    console.error('Download failed', err);
  }
}

export async function fetchRelated(id: string): Promise<SearchHit[]> {
  const body = await api.get<Partial<ApiReply<'relatedEntities'>>>('/api/search/related', {
    query: { type: 'document', id, limit: 10 },
  });
  return Array.isArray(body?.results) ? body.results : [];
}

export async function fetchDuplicates(id: string): Promise<SearchHit[]> {
  const body = await api.get<Partial<ApiReply<'duplicateEntities'>>>('/api/search/duplicates', {
    query: { type: 'document', id },
  });
  return Array.isArray(body?.results) ? body.results : [];
}

export type SimilarityEdge = ApiSchema<'SimilarityEdge'>;

export async function fetchNeighbours(ids: string[], signal?: AbortSignal): Promise<SimilarityEdge[]> {
  if (ids.length === 0) return [];
  const body = await api.post<Partial<ApiReply<'documentNeighbours'>>>(
    '/api/search/neighbours',
    { ids: ids.slice(0, 500), k: 3, min_similarity: 0.5 },
    signal ? { signal } : undefined,
  );
  return Array.isArray(body?.edges) ? body.edges : [];
}
