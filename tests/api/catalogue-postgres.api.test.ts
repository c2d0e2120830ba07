// The same catalogue API suite with the catalogue (and every other service) on a real Postgres, when
// DATABASE_URL is set (`make engines-up && source .engines/env`); skipped with the reason otherwise.
import { describe, it } from 'vitest';
import { defineCatalogueSuite } from './support/catalogue-suite.ts';

const url = process.env.DATABASE_URL;
if (url) {
  defineCatalogueSuite({ name: 'postgres', env: { DATABASE_URL: url, KAFKA_BROKERS: '', S3_ENDPOINT: '' } });
} else {
  describe('catalogue API (postgres)', () => {
    it.skip('needs DATABASE_URL (make engines-up && source .engines/env): not set, so Postgres was not exercised', () => {});
  });
  console.log('catalogue-postgres.api.test.ts: skipped, DATABASE_URL is not set');
}
