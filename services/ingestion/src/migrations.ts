import type { Migration } from '@kaboodle/platform';

// Never edit a shipped migration: add the next one.
export const migrations: Migration[] = [
  {
    id: '0001_files',
    sql: `
      CREATE TABLE IF NOT EXISTS files (
        id uuid PRIMARY KEY,
        owner_id text NOT NULL,
        name text NOT NULL,
        size bigint NOT NULL,
        content_type text NOT NULL,
        sha256 text NOT NULL,
        blob_key text NOT NULL,
        status text NOT NULL DEFAULT 'queued',
        stage text,
        progress integer NOT NULL DEFAULT 0,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX IF NOT EXISTS files_owner_created ON files (owner_id, created_at DESC);
      CREATE INDEX IF NOT EXISTS files_owner_sha ON files (owner_id, sha256);
    `,
  },
];
