// The auth schema's row types, generated from migrations.ts into db-schema.gen.ts, and the
// compile-only query builder typed by them. jsonb columns and text columns limited to a few names
// (CHECK constraints) are named here with what they hold, so row mappers need no casts.
// Regenerate after adding a migration: `make db-types` (db-schema.test.ts fails while it is stale).
import { fileURLToPath } from 'node:url';
import { writeFileSync } from 'node:fs';
import { createQueryBuilder, generateDatabaseTypes } from '@kaboodle/platform';
import type { DB } from './db-schema.gen.ts';
import { authMigrations } from './migrations.ts';

export const DB_SCHEMA_FILE = fileURLToPath(new URL('./db-schema.gen.ts', import.meta.url));

export const generateAuthSchema = (): Promise<string> =>
  generateDatabaseTypes(
    {
      schema: 'auth',
      migrations: authMigrations,
      columns: {
        'signing_keys.public_jwk': 'Jsonb<JWK>',
        'users.role': 'Generated<Role>',
        'users.admin_grant': 'AdminGrant',
        'user_settings.default_destination': 'Generated<Destination>',
        'email_tokens.purpose': 'EmailTokenPurpose',
      },
      imports: {
        Jsonb: '@kaboodle/platform',
        JWK: 'jose',
        Role: './user.repository.ts',
        AdminGrant: './user.repository.ts',
        Destination: './account-fields.ts',
        EmailTokenPurpose: './email-token.repository.ts',
      },
    },
    DB_SCHEMA_FILE,
  );

/** Builds auth's statements; run them with runAll/runFirst on the database or a transaction. */
export const authSql = createQueryBuilder<DB>();

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(DB_SCHEMA_FILE, await generateAuthSchema());
}
