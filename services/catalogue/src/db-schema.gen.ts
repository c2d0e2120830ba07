// Generated from catalogue's migrations by generateDatabaseTypes (make db-types): do not edit.
import type { ActivityType, EntityKind } from './activity.repository.ts';
import type { InventoryRow, ProvenanceJson, Tag } from './catalogue-model.ts';
import type { SmartSpec } from './kaboodle.repository.ts';
import type { Jsonb } from '@kaboodle/platform';
import type { ColumnType } from 'kysely';

export type Generated<T> =
  T extends ColumnType<infer S, infer I, infer U>
    ? ColumnType<S, I | undefined, U>
    : ColumnType<T, T | undefined, T>;

export type Numeric = ColumnType<string, number | string, number | string>;

export type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface Activity {
  at: Generated<Timestamp>;
  entity_id: string | null;
  entity_type: EntityKind | null;
  file_id: string | null;
  file_name: Generated<string>;
  id: Generated<number>;
  message: string;
  owner_id: string;
  type: ActivityType;
}

export interface ConsumedEvents {
  consumed_at: Generated<Timestamp>;
  event_id: string;
  topic: string;
}

export interface DismissedDuplicates {
  a_id: string;
  a_type: EntityKind;
  b_id: string;
  b_type: EntityKind;
  dismissed_at: Generated<Timestamp>;
  owner_id: string;
}

export interface Documents {
  analysis: Buffer | null;
  author: Generated<string>;
  blob_key: Generated<string>;
  category: Generated<string>;
  content_type: Generated<string>;
  corrected_fields: Jsonb<string[]>;
  corrections: Jsonb<Record<string, unknown>>;
  created_at: Generated<Timestamp>;
  extracted_text: Generated<string>;
  field: Generated<string>;
  file_name: Generated<string>;
  hashtags: Jsonb<Tag[]>;
  id: string;
  influenced_by: Jsonb<string[]>;
  issue: Generated<string>;
  journal_publisher: Generated<string>;
  language: Generated<string>;
  owner_id: string;
  page_count: Generated<number>;
  provenance: Jsonb<Record<string, ProvenanceJson>>;
  publication_year: number | null;
  sample: Generated<boolean>;
  search_text: Generated<string>;
  sha256: Generated<string>;
  size: Generated<number>;
  source_attempt: Generated<number>;
  source_file_id: string | null;
  summary: Generated<string>;
  thesis: Generated<string>;
  title: Generated<string>;
  updated_at: Generated<Timestamp>;
  version: number;
}

export interface FileFacts {
  attempt: Generated<number>;
  content_type: Generated<string>;
  created_at: Generated<Timestamp>;
  deleted: Generated<boolean>;
  file_id: string;
  file_name: Generated<string>;
  owner_id: string;
  processed_attempt: Generated<number>;
  result_type: EntityKind | null;
  size: Generated<number>;
  status: Generated<string>;
  updated_at: Generated<Timestamp>;
}

export interface InventoryItems {
  analysis: Buffer | null;
  barcodes: Jsonb<InventoryRow['barcodes']>;
  blob_key: Generated<string>;
  category: Generated<string>;
  color: Generated<string>;
  colors: Jsonb<InventoryRow['colors']>;
  content_type: Generated<string>;
  corrected_fields: Jsonb<string[]>;
  corrections: Jsonb<Record<string, unknown>>;
  created_at: Generated<Timestamp>;
  currency: Generated<string>;
  description: Generated<string>;
  dimensions: Generated<string>;
  extracted_text: Generated<string>;
  file_name: Generated<string>;
  hashtags: Jsonb<Tag[]>;
  id: string;
  import_cost: Numeric | null;
  material: Generated<string>;
  name: Generated<string>;
  objects: Jsonb<InventoryRow['objects']>;
  origin_source: Generated<string>;
  owner_id: string;
  provenance: Jsonb<Record<string, ProvenanceJson>>;
  retail_price: Numeric | null;
  sample: Generated<boolean>;
  search_text: Generated<string>;
  sha256: Generated<string>;
  size: Generated<number>;
  source_attempt: Generated<number>;
  source_file_id: string | null;
  updated_at: Generated<Timestamp>;
  version: number;
}

export interface KaboodleMembers {
  added_at: Generated<Timestamp>;
  entity_id: string;
  entity_type: EntityKind;
  kaboodle_id: string;
  note: Generated<string>;
  position: number;
}

export interface Kaboodles {
  cover_id: string | null;
  cover_type: EntityKind | null;
  created_at: Generated<Timestamp>;
  description: Generated<string>;
  id: string;
  name: string;
  owner_id: string;
  smart: Jsonb<SmartSpec> | null;
  updated_at: Generated<Timestamp>;
  version: number;
}

export interface DB {
  activity: Activity;
  consumed_events: ConsumedEvents;
  dismissed_duplicates: DismissedDuplicates;
  documents: Documents;
  file_facts: FileFacts;
  inventory_items: InventoryItems;
  kaboodle_members: KaboodleMembers;
  kaboodles: Kaboodles;
}
