// Pure rules of the vault list (docs/product.md#states, #validation): sorting, filters, categories, paging
// and the server's sort parameters, kept apart from React so they are tested on their own.
import { DOCUMENT_FIELDS } from '@kaboodle/kit';
import type { SortKey, SortState, VaultDocument } from './document-types.ts';

export const PAGE_SIZE = 20;
/** docs/product.md#limits: more documents load when the user scrolls within 100 px of the bottom. */
export const SCROLL_TRIGGER_PX = 100;

export const SORTABLE_COLUMNS: { key: SortKey; header: string }[] = [
  { key: 'title', header: 'Title' },
  { key: 'author', header: 'Author' },
  { key: 'category', header: 'Category' },
  { key: 'field', header: 'Field' },
  { key: 'publication_year', header: 'Year' },
  { key: 'journal_publisher', header: 'Journal/Publisher' },
];

/** First click ascending, a repeat click toggles, a new column starts ascending again. */
export function nextSort(current: SortState, key: SortKey): SortState {
  if (current?.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: 'asc' };
}

/** Year numerically (missing = 0); every other column as case-insensitive text (missing = ''). */
export function compareDocuments(a: VaultDocument, b: VaultDocument, key: SortKey): number {
  if (key === 'publication_year') return (a.publication_year ?? 0) - (b.publication_year ?? 0);
  const x = (a[key] ?? '').toLowerCase();
  const y = (b[key] ?? '').toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A stable sort (ties keep the server's order) that leaves the input untouched. */
export function sortDocuments(docs: readonly VaultDocument[], sort: SortState): VaultDocument[] {
  if (!sort) return [...docs];
  const factor = sort.dir === 'asc' ? 1 : -1;
  return docs
    .map((doc, index) => ({ doc, index }))
    .sort((p, q) => factor * compareDocuments(p.doc, q.doc, sort.key) || p.index - q.index)
    .map((p) => p.doc);
}

/** The server sorts too, so that page 2 continues page 1 in the same order. */
export function sortParams(sort: SortState): { sort?: SortKey; order?: 'asc' | 'desc' } {
  return sort ? { sort: sort.key, order: sort.dir } : {};
}

/** Every field value a person sees, flattened to text (tags and influences included). */
export function searchableValues(doc: VaultDocument): string[] {
  return [
    ...DOCUMENT_FIELDS.flatMap((f): string[] => {
      const v = doc[f];
      if (v === null) return [''];
      if (typeof v === 'string' || typeof v === 'number') return [String(v)];
      return v.map((x) => (typeof x === 'string' ? x : x.tag));
    }),
    doc.file_name ?? '',
  ];
}

/**
 * docs/product.md#validation: keyword = case-insensitive substring of any field value; category = exact
 * match.
 */
export function matchesFilters(doc: VaultDocument, keyword: string, category: string): boolean {
  if (category !== '' && doc.category !== category) return false;
  const needle = keyword.trim().toLowerCase();
  if (needle === '') return true;
  return searchableValues(doc).some((value) => value.toLowerCase().includes(needle));
}

export function filterDocuments(
  docs: readonly VaultDocument[],
  keyword: string,
  category: string,
): VaultDocument[] {
  return docs.filter((doc) => matchesFilters(doc, keyword, category));
}

/** The dropdown's entries: the catalogue's categories plus any seen in the loaded documents, sorted. */
export function distinctCategories(fromServer: readonly string[], docs: readonly VaultDocument[]): string[] {
  const set = new Set<string>();
  for (const c of fromServer) if (c.trim() !== '') set.add(c);
  for (const d of docs) if (d.category.trim() !== '') set.add(d.category);
  return [...set].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }));
}

/**
 * docs/product.md#states: a full page means more may exist; fewer means the end (the total, when known,
 * decides).
 */
export function hasMorePages(loaded: number, lastPageSize: number, total: number | null): boolean {
  if (total !== null) return loaded < total;
  return lastPageSize >= PAGE_SIZE;
}

/** Appends a page, dropping any document already shown (a new upload can shift the pages). */
export function appendPage(
  current: readonly VaultDocument[],
  page: readonly VaultDocument[],
): VaultDocument[] {
  const seen = new Set(current.map((d) => d.id));
  return [...current, ...page.filter((d) => !seen.has(d.id))];
}

/** Whether the page is scrolled within the trigger distance of its bottom. */
export function nearBottom(scrollY: number, viewportHeight: number, documentHeight: number): boolean {
  return scrollY + viewportHeight >= documentHeight - SCROLL_TRIGGER_PX;
}
