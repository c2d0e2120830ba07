// The ingestion schema's row types, generated from migrations.ts into db-schema.gen.ts, and the
// compile-only query builder typed by them. Text columns that only hold a few names are typed here
// by those names, so the row mapper needs no casts. The outbox table in this schema is the
// platform's (its own migrations and SQL), so it is left out.
// Regenerate after adding a migration: `make db-types` (db-schema.test.ts fails while it is stale).
import { fileURLToPath } from 'node:url';
import { writeFileSync } from 'node:fs';
import { createQueryBuilder, generateDatabaseTypes } from '@kaboodle/platform';
import type { DB } from './db-schema.gen.ts';
import { migrations } from './migrations.ts';

export const DB_SCHEMA_FILE = fileURLToPath(new URL('./db-schema.gen.ts', import.meta.url));

export const generateIngestionSchema = (): Promise<string> =>
  generateDatabaseTypes(
    {
      schema: 'ingestion',
      migrations,
      tables: ['files', 'blob_deletions'],
      columns: {
        'files.status': 'Generated<FileStatus>',
        'files.destination': 'Generated<DestinationName>',
        'files.result_type': 'ResultType | null',
      },
      imports: {
        FileStatus: './file.repository.ts',
        DestinationName: './file.repository.ts',
        ResultType: './file.repository.ts',
      },
    },
    DB_SCHEMA_FILE,
  );

/** Builds ingestion's statements; run them with runAll/runFirst on the database or a transaction. */
export const ingestionSql = createQueryBuilder<DB>();

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(DB_SCHEMA_FILE, await generateIngestionSchema());
}
