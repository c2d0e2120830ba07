import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DB_SCHEMA_FILE, generateIngestionSchema } from './db-schema.ts';

describe('ingestion’s generated row types', { timeout: 120_000 }, () => {
  let generated = '';
  beforeAll(async () => {
    generated = await generateIngestionSchema();
  }, 120_000);

  it('are current: db-schema.gen.ts is what the migrations give now', () => {
    // a failure here means a migration changed the schema: run `make db-types`
    expect(readFileSync(DB_SCHEMA_FILE, 'utf8') === generated, `${DB_SCHEMA_FILE} is stale`).toBe(true);
  });

  it('name what each constrained column holds, and leave the platform’s outbox out', () => {
    expect(generated).toContain('status: Generated<FileStatus>;');
    expect(generated).not.toContain('outbox');
  });
});
