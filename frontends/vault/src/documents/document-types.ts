// The catalogue's document JSON (contracts: catalogue) as the vault reads it.

export interface Hashtag {
  tag: string;
  relevancy: number;
}

export interface VaultDocument {
  id: string;
  title: string;
  author: string;
  category: string;
  field: string;
  publication_year: number | null;
  summary: string;
  thesis: string;
  issue: string;
  journal_publisher: string;
  influenced_by: string[];
  hashtags: Hashtag[];
  status?: string;
  indexed?: boolean;
  source_file_id?: string;
  file_name?: string;
  content_type?: string;
  size?: number;
  url?: string;
  corrected_fields?: string[];
  created_at?: string;
  updated_at?: string;
  version?: number;
}

export interface FieldProvenance {
  confidence?: number;
  source?: string;
  method?: string;
  evidence?: string;
}

export interface DocumentDetail extends VaultDocument {
  text?: string;
  page_count?: number | null;
  language?: string | null;
  provenance?: Record<string, FieldProvenance>;
}

/** Spec 3: a semantic search result of the vault. */
export interface SemanticResult {
  id: string;
  title: string;
  summary: string;
  excerpt?: string;
  score?: number;
  url?: string;
}

/** Spec 3: a unified search result (documents and inventory items). */
export interface SearchHit {
  type: 'document' | 'inventory_item';
  id: string;
  title?: string;
  name?: string;
  description?: string;
  content?: string;
  url?: string;
  image_url?: string;
  score?: number | null;
  category?: string;
  hashtags?: string[];
  excerpt?: string;
}

export type SortKey = 'title' | 'author' | 'category' | 'field' | 'publication_year' | 'journal_publisher';
export type SortState = { key: SortKey; dir: 'asc' | 'desc' } | null;

export type VaultView = 'table' | 'grid' | 'graph' | 'browser';
export const VAULT_VIEWS: { id: VaultView; label: string }[] = [
  { id: 'table', label: 'Table' },
  { id: 'grid', label: 'Grid' },
  { id: 'graph', label: 'Graph' },
  { id: 'browser', label: 'Browser' },
];

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
  return {
    ...(r as unknown as VaultDocument),
    id: String(r.id),
    title: text(r.title),
    author: text(r.author),
    category: text(r.category),
    field: text(r.field),
    publication_year: year,
    summary: text(r.summary),
    thesis: text(r.thesis),
    issue: text(r.issue),
    journal_publisher: text(r.journal_publisher),
    influenced_by: Array.isArray(r.influenced_by) ? r.influenced_by.map(text).filter(Boolean) : [],
    hashtags: tags,
    corrected_fields: Array.isArray(r.corrected_fields) ? r.corrected_fields.map(text) : [],
  };
}
