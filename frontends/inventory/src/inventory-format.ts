// The display rules for inventory values (docs/product.md#data): prices as "$" and two decimals, the
// fallbacks "Unnamed Product", "No description available" and "N/A" (blank in the table), and match scores.

export const UNNAMED = 'Unnamed Product';
export const NO_DESCRIPTION = 'No description available';
export const NOT_AVAILABLE = 'N/A';

export const displayName = (name: string | null | undefined): string => name?.trim() || UNNAMED;
export const displayDescription = (d: string | null | undefined): string => d?.trim() || NO_DESCRIPTION;
/** Any other field in the modal or the gallery: its value or "N/A". */
export const orNA = (v: string | null | undefined): string => v?.trim() || NOT_AVAILABLE;

/** "$12.50"; missing → "N/A" in the gallery and modal, '' in the table (docs/product.md#data). */
export function formatPrice(value: number | null | undefined, missing: string = NOT_AVAILABLE): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return missing;
  return `$${value.toFixed(2)}`;
}

/** Score (0..1) as a whole percentage, or null when there is none. */
export function percent(score: number | null | undefined): number | null {
  return typeof score === 'number' && Number.isFinite(score) ? Math.round(score * 100) : null;
}

/** "Unsure" below 40 %, so a weak guess never reads like a fact. */
export function confidenceWord(confidence: number): string {
  if (confidence >= 0.85) return 'Sure';
  if (confidence >= 0.6) return 'Likely';
  if (confidence >= 0.4) return 'Possible';
  return 'Unsure';
}

const SOURCES: Record<string, string> = {
  user: 'your correction',
  import: 'CSV import',
  local_model: 'offline model',
  remote_model: 'AI model',
  ocr: 'text in the photo',
  barcode_lookup: 'barcode lookup',
  instructions: 'your instructions',
  text_analysis: 'text analysis',
  file_metadata: 'file metadata',
};

export const sourceLabel = (source: string): string => SOURCES[source] ?? source.replace(/_/g, ' ');
