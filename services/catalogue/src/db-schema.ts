// The catalogue schema's row types, generated from migrations.ts into db-schema.gen.ts, and the
// compile-only query builder typed by them. jsonb columns are named here with the shape they hold.
// Regenerate after adding a migration: `make db-types` (db-schema.test.ts fails while it is stale).
import { fileURLToPath } from 'node:url';
import { writeFileSync } from 'node:fs';
import { createQueryBuilder, generateDatabaseTypes } from '@kaboodle/platform';
import type { DB } from './db-schema.gen.ts';
import { migrations } from './migrations.ts';

export const DB_SCHEMA_FILE = fileURLToPath(new URL('./db-schema.gen.ts', import.meta.url));

export const generateCatalogueSchema = (): Promise<string> =>
  generateDatabaseTypes(
    {
      schema: 'catalogue',
      migrations,
      columns: {
        'documents.influenced_by': 'Jsonb<string[]>',
        'documents.hashtags': 'Jsonb<Tag[]>',
        'documents.provenance': 'Jsonb<Record<string, ProvenanceJson>>',
        'documents.corrections': 'Jsonb<Record<string, unknown>>',
        'documents.corrected_fields': 'Jsonb<string[]>',
        'inventory_items.colors': "Jsonb<InventoryRow['colors']>",
        'inventory_items.hashtags': 'Jsonb<Tag[]>',
        'inventory_items.objects': "Jsonb<InventoryRow['objects']>",
        'inventory_items.barcodes': "Jsonb<InventoryRow['barcodes']>",
        'inventory_items.provenance': 'Jsonb<Record<string, ProvenanceJson>>',
        'inventory_items.corrections': 'Jsonb<Record<string, unknown>>',
        'inventory_items.corrected_fields': 'Jsonb<string[]>',
        'kaboodles.smart': 'Jsonb<SmartSpec> | null',
        // text columns that only ever hold one of a few names (the services write them, the
        // members' column has a CHECK): read as those names, so no row mapper needs a cast
        'kaboodles.cover_type': 'EntityKind | null',
        'kaboodle_members.entity_type': 'EntityKind',
        'activity.type': 'ActivityType',
        'activity.entity_type': 'EntityKind | null',
        'file_facts.result_type': 'EntityKind | null',
        'dismissed_duplicates.a_type': 'EntityKind',
        'dismissed_duplicates.b_type': 'EntityKind',
      },
      imports: {
        Jsonb: '@kaboodle/platform',
        ActivityType: './activity.repository.ts',
        EntityKind: './activity.repository.ts',
        InventoryRow: './catalogue-model.ts',
        ProvenanceJson: './catalogue-model.ts',
        Tag: './catalogue-model.ts',
        SmartSpec: './kaboodle.repository.ts',
      },
    },
    DB_SCHEMA_FILE,
  );

/** Builds the catalogue's statements; run them with runAll/runFirst on the database or a transaction. */
export const catalogueSql = createQueryBuilder<DB>();

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(DB_SCHEMA_FILE, await generateCatalogueSchema());
}
