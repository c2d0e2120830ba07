// Picks the Database adapter by configuration alone: a URL means a real Postgres, else PGlite.
import { join } from 'node:path';
import type { Database } from '../ports/database.ts';
import { createPgliteDatabase } from './pglite-database.ts';
import { createPostgresDatabase } from './postgres-database.ts';
import type { DbLogger } from './postgres-database.ts';

export { createPgliteDatabase, createPostgresDatabase };
export type { PgliteDatabaseOptions } from './pglite-database.ts';
export type { DbLogger, PostgresDatabaseOptions } from './postgres-database.ts';

export {
  isForeignKeyViolation,
  isSerializationFailure,
  isUniqueViolation,
  onCommit,
  pgErrorCode,
} from './database-common.ts';

export interface OpenDatabaseOptions {
  /** DATABASE_URL; when set, the real Postgres is used. */
  url?: string | undefined;
  /** KABOODLE_DATA_DIR: PGlite keeps its cluster in `<dataDir>/pglite` (shared by every schema). */
  dataDir: string;
  /** The service's schema, e.g. `catalogue`. */
  schema: string;
  logger?: DbLogger;
}

export function openDatabase(options: OpenDatabaseOptions): Database {
  if (options.url) {
    return createPostgresDatabase({
      url: options.url,
      schema: options.schema,
      ...(options.logger && { logger: options.logger }),
    });
  }
  const dataDir = options.dataDir.startsWith('memory://') ? options.dataDir : join(options.dataDir, 'pglite');
  return createPgliteDatabase({
    dataDir,
    schema: options.schema,
    ...(options.logger && { logger: options.logger }),
  });
}
