// The inventory API's shapes as the web reads them, in one module: the kit's types generated from the
// OpenAPI document (services/catalogue inventory.api.ts, services/search photo-search.api.ts), plus
// the few UI-only types (sort state, the filter).
import type { ApiSchema } from '@kaboodle/kit';

export const INVENTORY_CATEGORIES = ['Beads', 'Stools', 'Bowls', 'Fans', 'Totebags', 'Home Decor'] as const;
/** docs/product.md#limits, #calls: 20 a page everywhere. */
export const PAGE_SIZE = 20;

/**
 * The inventory item (docs/product.md#data), as GET /api/inventory lists it (generated from the OpenAPI
 * document).
 */
export type InventoryItem = ApiSchema<'InventoryItem'>;
export type InventoryDetail = ApiSchema<'InventoryItemDetail'>;
export type Colour = InventoryItem['colors'][number];
export type DetectedObject = InventoryItem['objects'][number];
export type Barcode = InventoryItem['barcodes'][number];
export type Provenance = InventoryDetail['provenance'][string];
/** The editable fields as PATCH /api/inventory/{id} takes them (hashtags as plain tags here). */
export type InventoryPatch = Omit<ApiSchema<'InventoryPatch'>, 'hashtags'> & { hashtags?: string[] };

/** What a barcode lookup found; the API keeps it open ({[key]: unknown}), these are the keys it sends. */
export interface BarcodeLookup {
  found?: boolean;
  source?: string;
  product_name?: string;
  brand?: string;
  description?: string;
  category?: string;
  origin_country?: string;
}

/** The table's sortable columns (server-side: the list is paged). */
export type SortKey =
  | 'name'
  | 'description'
  | 'category'
  | 'material'
  | 'color'
  | 'dimensions'
  | 'origin_source'
  | 'import_cost'
  | 'retail_price';
export type SortState = { key: SortKey; dir: 'asc' | 'desc' } | null;

export interface ListQuery {
  text: string;
  category: string;
  sort: SortState;
}

/** A unified search result (docs/product.md#data), as the photo search and related items answer. */
export type SearchHit = ApiSchema<'PhotoMatch'> | ApiSchema<'SearchResult'>;

export type ImportReport = ApiSchema<'InventoryImportReport'>;
