// The catalogue's entities three ways: the AI analysis (protobuf) as processing sends it, the merged
// fields the tables and the API show (the user's corrections win), and the catalogue.proto messages
// the search index and gRPC callers receive. Pure functions: no I/O here.
import {
  ColorSchema,
  create,
  DimensionsSchema,
  DocumentAnalysisSchema,
  DocumentSchema,
  EntryStatus,
  FileRefSchema,
  FieldProvenanceSchema,
  fromBinary,
  HashtagSchema,
  InventoryAnalysisSchema,
  InventoryItemSchema,
  KaboodleMemberSchema,
  KaboodleSchema,
  moneyFromNumber,
  SmartSearchSchema,
  moneyToNumber,
  ProvenanceSource,
  timestampFromDate,
  toBinary,
} from '@kaboodle/proto';
import type {
  Document,
  DocumentAnalysis,
  FieldProvenance,
  FileRef,
  InventoryAnalysis,
  InventoryItem,
  Kaboodle,
} from '@kaboodle/proto';
import { EntityType } from '@kaboodle/proto';

export interface Tag {
  tag: string;
  relevancy: number;
}

/** A document's editable fields (the Document of docs/product.md#data). */
export interface DocumentFields {
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
  hashtags: Tag[];
}
export const DOCUMENT_FIELDS = [
  'title',
  'author',
  'category',
  'field',
  'publication_year',
  'summary',
  'thesis',
  'issue',
  'journal_publisher',
  'influenced_by',
  'hashtags',
] as const satisfies readonly (keyof DocumentFields)[];

/** An inventory item's editable (AI-generated) fields. */
export interface InventoryFields {
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
  hashtags: Tag[];
}
export const INVENTORY_FIELDS = [
  'name',
  'description',
  'category',
  'material',
  'color',
  'dimensions',
  'origin_source',
  'import_cost',
  'retail_price',
  'currency',
  'hashtags',
] as const satisfies readonly (keyof InventoryFields)[];

export interface ProvenanceJson {
  confidence: number;
  source: string;
  method: string;
  evidence: string;
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;
const clamp01 = (n: number): number => (Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0);

export function provenanceToJson(p: Record<string, FieldProvenance>): Record<string, ProvenanceJson> {
  const out: Record<string, ProvenanceJson> = {};
  for (const [field, v] of Object.entries(p)) {
    out[field] = {
      confidence: round3(clamp01(v.confidence)),
      source: (ProvenanceSource[v.source] ?? 'UNSPECIFIED').toLowerCase(),
      method: v.method,
      evidence: v.evidence,
    };
  }
  return out;
}

const USER_PROVENANCE = (): FieldProvenance =>
  create(FieldProvenanceSchema, {
    confidence: 1,
    source: ProvenanceSource.USER,
    method: 'user correction',
    evidence: '',
  });

/** The document fields the AI found. */
export function documentFieldsFromAnalysis(a: DocumentAnalysis): DocumentFields {
  return {
    title: a.title,
    author: a.author,
    category: a.category,
    field: a.field,
    publication_year: a.publicationYear ?? null,
    summary: a.summary,
    thesis: a.thesis,
    issue: a.issue,
    journal_publisher: a.journalPublisher,
    influenced_by: [...a.influencedBy],
    hashtags: a.hashtags.map((h) => ({ tag: h.tag, relevancy: round3(clamp01(h.relevancy)) })),
  };
}

function money(m: { currencyCode: string; units: bigint; nanos: number } | undefined): number | null {
  return m ? Math.round(moneyToNumber(m as Parameters<typeof moneyToNumber>[0]) * 100) / 100 : null;
}

/** Dimensions as one line of text: as stated, else built from the numbers. */
function dimensionsText(a: InventoryAnalysis): string {
  const d = a.dimensions;
  if (!d) return '';
  if (d.text.trim()) return d.text.trim();
  const sides = [d.width, d.height, d.depth].filter((v): v is number => v !== undefined);
  const parts: string[] = [];
  if (sides.length) parts.push(`${sides.join(' x ')}${d.lengthUnit ? ` ${d.lengthUnit}` : ''}`);
  if (d.weight !== undefined) parts.push(`${d.weight}${d.weightUnit ? ` ${d.weightUnit}` : ''}`);
  return parts.join(', ');
}

export function inventoryFieldsFromAnalysis(a: InventoryAnalysis): InventoryFields {
  return {
    name: a.name,
    description: a.description,
    category: a.category,
    material: a.material,
    color: a.colors[0]?.name ?? '',
    dimensions: dimensionsText(a),
    origin_source: a.originSource,
    import_cost: money(a.importCost),
    retail_price: money(a.retailPrice),
    currency: a.retailPrice?.currencyCode || a.importCost?.currencyCode || 'USD',
    hashtags: a.hashtags.map((h) => ({ tag: h.tag, relevancy: round3(clamp01(h.relevancy)) })),
  };
}

/** Corrections win over the analysis, field by field. */
export function mergeFields<T extends object>(ai: T, corrections: Partial<T>): T {
  const merged = { ...ai };
  for (const [k, v] of Object.entries(corrections)) {
    if (v !== undefined && k in ai) (merged as Record<string, unknown>)[k] = v;
  }
  return merged;
}

/** The analysis with the user's corrections written in (provenance `user`): what search indexes. */
export function correctedDocumentAnalysis(a: DocumentAnalysis, c: Partial<DocumentFields>): DocumentAnalysis {
  if (Object.keys(c).length === 0) return a;
  // a shallow copy is enough: corrected fields are replaced, never mutated (a reflective clone of the
  // vectors costs more than the rest of storing a document)
  const out: DocumentAnalysis = { ...a, provenance: { ...a.provenance } };
  const set = <K extends keyof DocumentFields>(k: K, apply: (v: DocumentFields[K]) => void) => {
    const v = c[k];
    if (v === undefined) return;
    apply(v as DocumentFields[K]);
    out.provenance[k] = USER_PROVENANCE();
  };
  set('title', (v) => (out.title = v));
  set('author', (v) => (out.author = v));
  set('category', (v) => (out.category = v));
  set('field', (v) => (out.field = v));
  set('publication_year', (v) => (out.publicationYear = v ?? undefined));
  set('summary', (v) => (out.summary = v));
  set('thesis', (v) => (out.thesis = v));
  set('issue', (v) => (out.issue = v));
  set('journal_publisher', (v) => (out.journalPublisher = v));
  set('influenced_by', (v) => (out.influencedBy = [...v]));
  set('hashtags', (v) => (out.hashtags = v.map((h) => create(HashtagSchema, h))));
  return out;
}

export function correctedInventoryAnalysis(
  a: InventoryAnalysis,
  c: Partial<InventoryFields>,
): InventoryAnalysis {
  if (Object.keys(c).length === 0) return a;
  const out: InventoryAnalysis = { ...a, provenance: { ...a.provenance } };
  const mark = (k: string) => (out.provenance[k] = USER_PROVENANCE());
  const text = {
    name: 'name',
    description: 'description',
    category: 'category',
    material: 'material',
    origin_source: 'originSource',
  } as const;
  for (const [field, key] of Object.entries(text) as [
    keyof typeof text,
    (typeof text)[keyof typeof text],
  ][]) {
    const v = c[field];
    if (v === undefined) continue;
    out[key] = v;
    mark(field);
  }
  if (c.color !== undefined) {
    // The user's colour goes first (the one shown); the measured ones stay behind it.
    const name = c.color;
    const same = out.colors.find((x) => x.name.toLowerCase() === name.toLowerCase());
    const rest = out.colors.filter((x) => x !== same);
    out.colors = name
      ? [create(ColorSchema, { name, hex: same?.hex ?? '', share: same?.share ?? 1 }), ...rest]
      : rest;
    mark('color');
  }
  if (c.dimensions !== undefined) {
    out.dimensions = create(DimensionsSchema, { text: c.dimensions });
    mark('dimensions');
  }
  const currency = c.currency ?? (a.retailPrice?.currencyCode || a.importCost?.currencyCode || 'USD');
  if (c.import_cost !== undefined || c.currency !== undefined) {
    const v = c.import_cost !== undefined ? c.import_cost : money(a.importCost);
    out.importCost = v === null ? undefined : moneyFromNumber(v, currency);
    if (c.import_cost !== undefined) mark('import_cost');
  }
  if (c.retail_price !== undefined || c.currency !== undefined) {
    const v = c.retail_price !== undefined ? c.retail_price : money(a.retailPrice);
    out.retailPrice = v === null ? undefined : moneyFromNumber(v, currency);
    if (c.retail_price !== undefined) mark('retail_price');
  }
  if (c.currency !== undefined) mark('currency');
  if (c.hashtags !== undefined) {
    out.hashtags = c.hashtags.map((h) => create(HashtagSchema, h));
    mark('hashtags');
  }
  return out;
}

export const encodeDocumentAnalysis = (a: DocumentAnalysis): Uint8Array =>
  toBinary(DocumentAnalysisSchema, a);
export const decodeDocumentAnalysis = (b: Uint8Array | null): DocumentAnalysis =>
  b ? fromBinary(DocumentAnalysisSchema, b) : create(DocumentAnalysisSchema);
export const encodeInventoryAnalysis = (a: InventoryAnalysis): Uint8Array =>
  toBinary(InventoryAnalysisSchema, a);
export const decodeInventoryAnalysis = (b: Uint8Array | null): InventoryAnalysis =>
  b ? fromBinary(InventoryAnalysisSchema, b) : create(InventoryAnalysisSchema);

/** Lower-cased text of every shown field, for the keyword filter ("substring of any field value"). */
export function documentSearchText(f: DocumentFields, fileName: string): string {
  return [
    f.title,
    f.author,
    f.category,
    f.field,
    f.publication_year === null ? '' : String(f.publication_year),
    f.summary,
    f.thesis,
    f.issue,
    f.journal_publisher,
    ...f.influenced_by,
    ...f.hashtags.map((h) => h.tag),
    fileName,
  ]
    .join('\n')
    .toLowerCase();
}

/** The inventory filter (docs/product.md#validation): name, description, material, origin_source. */
export function inventorySearchText(f: InventoryFields): string {
  return [f.name, f.description, f.material, f.origin_source].join('\n').toLowerCase();
}

/** One row of either table, as the repositories read it. */
export interface EntityRowBase {
  id: string;
  owner_id: string;
  source_file_id: string | null;
  source_attempt: number;
  file_name: string;
  content_type: string;
  size: number;
  blob_key: string;
  sha256: string;
  hashtags: Tag[];
  extracted_text: string;
  provenance: Record<string, ProvenanceJson>;
  analysis: Uint8Array | null;
  corrections: Record<string, unknown>;
  corrected_fields: string[];
  /** From the first-run sample library. */
  sample: boolean;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export interface DocumentRow extends EntityRowBase, Omit<DocumentFields, 'hashtags'> {
  page_count: number;
  language: string;
}

export interface InventoryRow extends EntityRowBase, Omit<InventoryFields, 'hashtags'> {
  colors: { name: string; hex: string; share: number }[];
  objects: { label: string; score: number; box?: { x: number; y: number; width: number; height: number } }[];
  barcodes: { format: string; value: string; lookup: Record<string, unknown> | null }[];
}

const iso = (d: Date): string => new Date(d).toISOString();

const isDocumentField = (f: string): f is (typeof DOCUMENT_FIELDS)[number] =>
  (DOCUMENT_FIELDS as readonly string[]).includes(f);

/** Document JSON (the Document schema of documents.api.ts): the list shape. */
export function documentJson(r: DocumentRow) {
  return {
    id: r.id,
    title: r.title,
    author: r.author,
    category: r.category,
    field: r.field,
    publication_year: r.publication_year,
    summary: r.summary,
    thesis: r.thesis,
    issue: r.issue,
    journal_publisher: r.journal_publisher,
    influenced_by: r.influenced_by,
    hashtags: r.hashtags,
    status: 'processed' as const,
    indexed: true as const,
    source_file_id: r.source_file_id,
    file_name: r.file_name,
    content_type: r.content_type,
    size: r.size,
    url: `/api/documents/${r.id}/file`,
    // only ever written from a validated edit's keys
    corrected_fields: r.corrected_fields.filter(isDocumentField),
    sample: r.sample,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    version: r.version,
  };
}

/** DocumentDetail JSON: the list shape plus the text, pages, language and provenance. */
export function documentDetailJson(r: DocumentRow) {
  return {
    ...documentJson(r),
    text: r.extracted_text,
    page_count: r.page_count,
    language: r.language,
    provenance: r.provenance,
  };
}

export function inventoryJson(r: InventoryRow): InventoryJson;
export function inventoryJson(r: InventoryRow, detail: true): InventoryDetailJson;
export function inventoryJson(r: InventoryRow, detail = false): InventoryJson | InventoryDetailJson {
  const hasImage = r.blob_key !== '' && r.content_type.startsWith('image/');
  const base = {
    id: r.id,
    name: r.name,
    description: r.description,
    category: r.category,
    material: r.material,
    color: r.color,
    colors: r.colors,
    dimensions: r.dimensions,
    origin_source: r.origin_source,
    import_cost: r.import_cost,
    retail_price: r.retail_price,
    currency: r.currency,
    image_url: hasImage ? `/api/inventory/${r.id}/image` : null,
    // the photo's hash names the version, so the browser may keep the thumbnail for a year
    thumbnail_url: hasImage ? `/api/inventory/${r.id}/image?w=320&v=${r.sha256.slice(0, 16)}` : null,
    status: 'processed' as const,
    file_type: r.content_type,
    hashtags: r.hashtags,
    objects: r.objects,
    barcodes: r.barcodes,
    source_file_id: r.source_file_id,
    file_name: r.file_name,
    corrected_fields: r.corrected_fields,
    sample: r.sample,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    version: r.version,
  };
  if (!detail) return base;
  const analysis = decodeInventoryAnalysis(r.analysis);
  const detailed: InventoryDetailJson = {
    ...base,
    text: r.extracted_text,
    provenance: r.provenance,
    image_width: analysis.imageWidth,
    image_height: analysis.imageHeight,
    image_model: analysis.imageEmbedding?.values.length ? analysis.imageEmbedding.model : '',
  };
  return detailed;
}

export interface InventoryJson {
  id: string;
  name: string;
  description: string;
  category: string;
  material: string;
  color: string;
  colors: InventoryRow['colors'];
  dimensions: string;
  origin_source: string;
  import_cost: number | null;
  retail_price: number | null;
  currency: string;
  image_url: string | null;
  thumbnail_url: string | null;
  status: 'processed';
  file_type: string;
  hashtags: Tag[];
  objects: InventoryRow['objects'];
  barcodes: InventoryRow['barcodes'];
  source_file_id: string | null;
  file_name: string;
  corrected_fields: string[];
  sample: boolean;
  created_at: string;
  updated_at: string;
  version: number;
}

export interface InventoryDetailJson extends InventoryJson {
  text: string;
  provenance: Record<string, ProvenanceJson>;
  image_width: number;
  image_height: number;
  image_model: string;
}

function fileRef(r: EntityRowBase): FileRef | undefined {
  if (!r.source_file_id) return undefined;
  return create(FileRefSchema, {
    ownerId: r.owner_id,
    fileId: r.source_file_id,
    blobKey: r.blob_key,
    contentType: r.content_type,
    fileName: r.file_name,
    sizeBytes: BigInt(r.size),
    sha256: r.sha256,
  });
}

/** catalogue.proto Document: the analysis with corrections merged in (embedding and passages kept). */
export function documentProto(r: DocumentRow): Document {
  const analysis = correctedDocumentAnalysis(
    decodeDocumentAnalysis(r.analysis),
    r.corrections as Partial<DocumentFields>,
  );
  return create(DocumentSchema, {
    id: r.id,
    ownerId: r.owner_id,
    sourceFile: fileRef(r),
    analysis,
    correctedFields: r.corrected_fields,
    status: EntryStatus.PROCESSED,
    version: BigInt(r.version),
    createdAt: timestampFromDate(new Date(r.created_at)),
    updatedAt: timestampFromDate(new Date(r.updated_at)),
  });
}

export function inventoryProto(r: InventoryRow): InventoryItem {
  const analysis = correctedInventoryAnalysis(
    decodeInventoryAnalysis(r.analysis),
    r.corrections as Partial<InventoryFields>,
  );
  return create(InventoryItemSchema, {
    id: r.id,
    ownerId: r.owner_id,
    sourceFile: fileRef(r),
    analysis,
    correctedFields: r.corrected_fields,
    status: EntryStatus.PROCESSED,
    // search results show the gallery-size picture; items imported without a photo have none
    imageUrl:
      r.blob_key !== '' && r.content_type.startsWith('image/')
        ? `/api/inventory/${r.id}/image?w=320&v=${r.sha256.slice(0, 16)}`
        : '',
    version: BigInt(r.version),
    createdAt: timestampFromDate(new Date(r.created_at)),
    updatedAt: timestampFromDate(new Date(r.updated_at)),
  });
}

const KIND_TYPES = { document: EntityType.DOCUMENT, inventory_item: EntityType.INVENTORY_ITEM } as const;

export interface KaboodleProtoInput {
  row: {
    id: string;
    owner_id: string;
    name: string;
    description: string;
    version: number;
    created_at: Date;
    updated_at: Date;
    smart: {
      query: string;
      search_type: string;
      types: ('document' | 'inventory_item')[];
      category: string | null;
      kaboodle_id?: string | null;
    } | null;
  };
  members: { type: 'document' | 'inventory_item'; id: string; note: string; added_at: Date }[];
}

/** catalogue.proto Kaboodle: members in order (none for a smart kaboodle: its search decides). */
export function kaboodleProto({ row, members }: KaboodleProtoInput): Kaboodle {
  return create(KaboodleSchema, {
    id: row.id,
    ownerId: row.owner_id,
    name: row.name,
    description: row.description,
    members: members.map((m) =>
      create(KaboodleMemberSchema, {
        entityType: KIND_TYPES[m.type],
        entityId: m.id,
        addedAt: timestampFromDate(new Date(m.added_at)),
        note: m.note,
      }),
    ),
    version: BigInt(row.version),
    createdAt: timestampFromDate(new Date(row.created_at)),
    updatedAt: timestampFromDate(new Date(row.updated_at)),
    ...(row.smart
      ? {
          smart: create(SmartSearchSchema, {
            query: row.smart.query,
            searchType: row.smart.search_type,
            entityTypes: row.smart.types.map((t) => KIND_TYPES[t]),
            category: row.smart.category ?? '',
            kaboodleId: row.smart.kaboodle_id ?? '',
          }),
        }
      : {}),
  });
}
