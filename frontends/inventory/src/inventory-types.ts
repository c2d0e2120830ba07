// The inventory API's shapes as the web reads them, in one module (contract: services/catalogue
// inventory.api.ts and services/search photo-search.api.ts). When the kit's generated OpenAPI types
// land, these become re-exports of them.

export const INVENTORY_CATEGORIES = ['Beads', 'Stools', 'Bowls', 'Fans', 'Totebags', 'Home Decor'] as const;
/** Spec 9 and 7: 20 a page everywhere. */
export const PAGE_SIZE = 20;

export interface Colour {
  name: string;
  hex: string;
  share: number;
}

export interface DetectedObject {
  label: string;
  score: number;
  box?: { x: number; y: number; width: number; height: number };
}

export interface BarcodeLookup {
  found?: boolean;
  source?: string;
  product_name?: string;
  brand?: string;
  description?: string;
  category?: string;
  origin_country?: string;
}

export interface Barcode {
  format: string;
  value: string;
  lookup: BarcodeLookup | null;
}

export interface Tag {
  tag: string;
  relevancy: number;
}

/** Spec 3's inventory item, as GET /api/inventory lists it. */
export interface InventoryItem {
  id: string;
  name: string;
  description: string;
  category: string;
  material: string;
  color: string;
  colors: Colour[];
  dimensions: string;
  origin_source: string;
  import_cost: number | null;
  retail_price: number | null;
  currency: string;
  image_url: string | null;
  thumbnail_url: string | null;
  status: 'processed' | 'pending';
  file_type: string;
  hashtags: Tag[];
  objects: DetectedObject[];
  barcodes: Barcode[];
  source_file_id: string | null;
  file_name: string;
  corrected_fields: string[];
  created_at: string;
  updated_at: string;
  version: number;
}

export interface Provenance {
  confidence: number;
  source: string;
  method: string;
  evidence: string;
}

export interface InventoryDetail extends InventoryItem {
  text: string;
  provenance: Record<string, Provenance>;
  image_width: number;
  image_height: number;
  image_model: string;
}

export type EditableField =
  | 'name'
  | 'description'
  | 'category'
  | 'material'
  | 'color'
  | 'dimensions'
  | 'origin_source'
  | 'import_cost'
  | 'retail_price'
  | 'currency'
  | 'hashtags';

export type InventoryPatch = Partial<{
  name: string;
  description: string;
  category: string;
  material: string;
  color: string;
  dimensions: string;
  origin_source: string;
  import_cost: number | null;
  retail_price: number | null;
  currency: string;
  hashtags: string[];
}>;

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

/** A unified search result (spec 3), as the photo search and related items answer. */
export interface SearchHit {
  type: 'document' | 'inventory_item';
  id: string;
  title?: string;
  name?: string;
  description?: string;
  image_url?: string;
  score?: number | null;
  category?: string;
}

export interface ImportReport {
  columns: string[];
  mapping: Record<string, string>;
  rows: number;
  valid: number;
  errors: { line: number; message: string }[];
  preview: { line: number; fields: Record<string, unknown>; errors: string[] }[];
  imported: number;
  ids: string[];
  message: string;
}
