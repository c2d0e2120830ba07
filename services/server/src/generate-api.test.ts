import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, generateApiModule } from './generate-api.ts';

describe('the frontends’ generated API types', () => {
  it('are current: the committed file is what npm run generate:api gives from the operations now', async () => {
    const committed = readFileSync(GENERATED_FILE, 'utf8');
    // a failure here means an operation's schemas changed: run `npm run generate:api` (make build does)
    expect(committed === (await generateApiModule()), `${GENERATED_FILE} is stale`).toBe(true);
  });

  it('carry the document’s values: the document fields and the upload file rules', async () => {
    const text = await generateApiModule();
    expect(text).toContain("export const DOCUMENT_FIELDS = [\n  'title',");
    expect(text).toMatch(/maxBytes: 20971520,/);
    expect(text).toContain("'application/pdf': ['pdf']");
    expect(text).toMatch(/export interface paths \{[\s\S]*'\/api\/documents\/\{id\}': \{/);
  });
});
