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
  {
    // Reprocessing and stale re-dispatch (attempt, dispatches), what the user asked for (destination,
    // instructions, source_url), what the file became (result_*), the type the bytes really are
    // (sniffed_type, for serving), and blobs whose delete must be retried after their row is gone.
    id: '0002_attempts_results',
    sql: `
      ALTER TABLE files ADD COLUMN IF NOT EXISTS attempt integer NOT NULL DEFAULT 1;
      ALTER TABLE files ADD COLUMN IF NOT EXISTS dispatches integer NOT NULL DEFAULT 1;
      ALTER TABLE files ADD COLUMN IF NOT EXISTS destination text NOT NULL DEFAULT 'auto';
      ALTER TABLE files ADD COLUMN IF NOT EXISTS instructions text NOT NULL DEFAULT '';
      ALTER TABLE files ADD COLUMN IF NOT EXISTS source_url text;
      ALTER TABLE files ADD COLUMN IF NOT EXISTS result_type text;
      ALTER TABLE files ADD COLUMN IF NOT EXISTS result_id text;
      ALTER TABLE files ADD COLUMN IF NOT EXISTS sniffed_type text;
      CREATE INDEX IF NOT EXISTS files_running_updated ON files (updated_at)
        WHERE status IN ('queued', 'processing');
      CREATE TABLE IF NOT EXISTS blob_deletions (
        blob_key text PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now(),
        attempts integer NOT NULL DEFAULT 0,
        last_error text
      );
    `,
  },
  {
    // The first-run sample library (issue 18): its files are marked, listed and removed together.
    id: '0003_sample_files',
    sql: `
      ALTER TABLE files ADD COLUMN IF NOT EXISTS sample boolean NOT NULL DEFAULT false;
      CREATE INDEX IF NOT EXISTS files_owner_sample ON files (owner_id) WHERE sample;
    `,
  },
];
