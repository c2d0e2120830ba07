// The catalogue's and search's JSON as the vault reads it: the API's generated types (from the
// OpenAPI document, @kaboodle/kit), never a copy of them.
import { DOCUMENT_FIELDS, type ApiQuery, type ApiSchema } from '@kaboodle/kit';

export type Hashtag = ApiSchema<'Tag'>;
/** A document's own fields, the ones a correction may change. */
export type DocumentField = (typeof DOCUMENT_FIELDS)[number];
type ApiDocument = ApiSchema<'Document'>;

/** What the screens rely on: the id and the document's fields; the rest as the server sent it. */
export type VaultDocument = Pick<ApiDocument, 'id' | DocumentField> &
  Partial<Omit<ApiDocument, 'id' | DocumentField>>;

export type FieldProvenance = ApiSchema<'FieldProvenance'>;

export type DocumentDetail = VaultDocument &
  Partial<Pick<ApiSchema<'DocumentDetail'>, 'text' | 'page_count' | 'language' | 'provenance'>>;

/** docs/product.md#data: a semantic search result of the vault. */
export type SemanticResult = ApiSchema<'DocumentSearchResult'>;

/** docs/product.md#data: a unified search result (documents and inventory items). */
export type SearchHit = ApiSchema<'SearchResult'>;

/** The list's sortable columns: the server's sorts that are document fields. */
export type SortKey = Extract<NonNullable<ApiQuery<'listDocuments'>['sort']>, DocumentField>;
export type SortState = { key: SortKey; dir: 'asc' | 'desc' } | null;

export type VaultView = 'table' | 'grid' | 'graph' | 'browser';
export const VAULT_VIEWS: { id: VaultView; label: string }[] = [
  { id: 'table', label: 'Table' },
  { id: 'grid', label: 'Grid' },
  { id: 'graph', label: 'Graph' },
  { id: 'browser', label: 'Browser' },
];

/** The text fields: every document field but the year, the influences and the tags. */
export const TEXT_FIELDS = DOCUMENT_FIELDS.filter(
  (f): f is Exclude<DocumentField, 'publication_year' | 'influenced_by' | 'hashtags'> =>
    f !== 'publication_year' && f !== 'influenced_by' && f !== 'hashtags',
);

/** Coerces whatever the server sent into the shape the screens rely on (missing text as ''). */
export function asDocument(raw: unknown): VaultDocument | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== 'string' && typeof r.id !== 'number') return null;
  const text = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));
  const year =
    typeof r.publication_year === 'number' && Number.isFinite(r.publication_year) ? r.publication_year : null;
  const tags: Hashtag[] = Array.isArray(r.hashtags)
    ? r.hashtags.flatMap((h): Hashtag[] => {
        if (typeof h === 'string') return [{ tag: h, relevancy: 1 }];
        if (h && typeof h === 'object' && typeof (h as Hashtag).tag === 'string') {
          const rel = Number((h as Hashtag).relevancy);
          return [
            { tag: (h as Hashtag).tag, relevancy: Number.isFinite(rel) ? Math.max(0, Math.min(1, rel)) : 0 },
          ];
        }
        return [];
      })
    : [];
  const texts = Object.fromEntries(TEXT_FIELDS.map((f) => [f, text(r[f])])) as Record<
    (typeof TEXT_FIELDS)[number],
    string
  >;
  return {
    ...(r as unknown as VaultDocument),
    id: String(r.id),
    ...texts,
    publication_year: year,
    influenced_by: Array.isArray(r.influenced_by) ? r.influenced_by.map(text).filter(Boolean) : [],
    hashtags: tags,
    corrected_fields: Array.isArray(r.corrected_fields)
      ? r.corrected_fields.filter((f): f is DocumentField =>
          (DOCUMENT_FIELDS as readonly unknown[]).includes(f),
        )
      : [],
  };
}
