// TEST ONLY: a throwaway embedded Postgres (PGlite, in memory) with the auth schema migrated.
import { randomBytes } from 'node:crypto';
import type { Database } from '@kaboodle/platform';
import { createPgliteDatabase } from '@kaboodle/platform';
import { authMigrations } from '../migrations.ts';

export async function createTestDatabase(): Promise<Database> {
  const db = createPgliteDatabase({
    dataDir: `memory://auth-unit-${randomBytes(6).toString('hex')}`,
    schema: 'auth',
  });
  await db.migrate(authMigrations);
  return db;
}
