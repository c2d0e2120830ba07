import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DB_SCHEMA_FILE, generateCatalogueSchema } from './db-schema.ts';

describe('the catalogue’s generated row types', { timeout: 120_000 }, () => {
  let generated = '';
  beforeAll(async () => {
    generated = await generateCatalogueSchema();
  }, 120_000);

  it('are current: db-schema.gen.ts is what the migrations give now', () => {
    // a failure here means a migration changed the schema: run `make db-types`
    expect(readFileSync(DB_SCHEMA_FILE, 'utf8') === generated, `${DB_SCHEMA_FILE} is stale`).toBe(true);
  });

  it('name what each jsonb column holds, not JSON in general', () => {
    expect(generated).toContain('hashtags: Jsonb<Tag[]>;');
    expect(generated).toContain("barcodes: Jsonb<InventoryRow['barcodes']>;");
    expect(generated).not.toMatch(/: (Generated<)?Json>?;/);
  });
});
