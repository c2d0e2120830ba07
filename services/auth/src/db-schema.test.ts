import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DB_SCHEMA_FILE, generateAuthSchema } from './db-schema.ts';

describe('auth’s generated row types', { timeout: 120_000 }, () => {
  let generated = '';
  beforeAll(async () => {
    generated = await generateAuthSchema();
  }, 120_000);

  it('are current: db-schema.gen.ts is what the migrations give now', () => {
    // a failure here means a migration changed the schema: run `make db-types`
    expect(readFileSync(DB_SCHEMA_FILE, 'utf8') === generated, `${DB_SCHEMA_FILE} is stale`).toBe(true);
  });

  it('name what each jsonb and constrained column holds', () => {
    expect(generated).toContain('public_jwk: Jsonb<JWK>;');
    expect(generated).toContain('role: Generated<Role>;');
    expect(generated).not.toMatch(/: (Generated<)?Json>?;/);
  });
});
