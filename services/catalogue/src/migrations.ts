import type { Migration } from '@kaboodle/platform';

// Never edit a shipped migration: add the next one.
//
// Versions come from one sequence, so every change of any entity gets a number above every earlier
// one: a document deleted and later made again from the same file (or turned into an inventory item)
// still moves forward for the search index, and ListForIndex can resume "after version N".
//
// Each entity keeps the last analysis as protobuf bytes (embedding and passages included) next to the
// user's corrections, so a re-index or a reprocess needs nothing else; the plain columns hold the
// merged values (corrections win) for listing, sorting and keyword search (search_text, lower-cased).
export const migrations: Migration[] = [
  {
    id: '0001_catalogue',
    sql: `
      CREATE SEQUENCE IF NOT EXISTS entity_version_seq;

      CREATE TABLE IF NOT EXISTS documents (
        id uuid PRIMARY KEY,
        owner_id text NOT NULL,
        source_file_id uuid,
        source_attempt integer NOT NULL DEFAULT 0,
        file_name text NOT NULL DEFAULT '',
        content_type text NOT NULL DEFAULT '',
        size bigint NOT NULL DEFAULT 0,
        blob_key text NOT NULL DEFAULT '',
        sha256 text NOT NULL DEFAULT '',
        title text NOT NULL DEFAULT '',
        author text NOT NULL DEFAULT '',
        category text NOT NULL DEFAULT '',
        field text NOT NULL DEFAULT '',
        publication_year integer,
        summary text NOT NULL DEFAULT '',
        thesis text NOT NULL DEFAULT '',
        issue text NOT NULL DEFAULT '',
        journal_publisher text NOT NULL DEFAULT '',
        influenced_by jsonb NOT NULL DEFAULT '[]'::jsonb,
        hashtags jsonb NOT NULL DEFAULT '[]'::jsonb,
        extracted_text text NOT NULL DEFAULT '',
        page_count integer NOT NULL DEFAULT 0,
        language text NOT NULL DEFAULT '',
        provenance jsonb NOT NULL DEFAULT '{}'::jsonb,
        analysis bytea,
        corrections jsonb NOT NULL DEFAULT '{}'::jsonb,
        corrected_fields jsonb NOT NULL DEFAULT '[]'::jsonb,
        search_text text NOT NULL DEFAULT '',
        version bigint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX IF NOT EXISTS documents_owner_created ON documents (owner_id, created_at DESC, id);
      CREATE INDEX IF NOT EXISTS documents_owner_category ON documents (owner_id, category);
      CREATE INDEX IF NOT EXISTS documents_version ON documents (version);

      CREATE TABLE IF NOT EXISTS inventory_items (
        id uuid PRIMARY KEY,
        owner_id text NOT NULL,
        source_file_id uuid,
        source_attempt integer NOT NULL DEFAULT 0,
        file_name text NOT NULL DEFAULT '',
        content_type text NOT NULL DEFAULT '',
        size bigint NOT NULL DEFAULT 0,
        blob_key text NOT NULL DEFAULT '',
        sha256 text NOT NULL DEFAULT '',
        name text NOT NULL DEFAULT '',
        description text NOT NULL DEFAULT '',
        category text NOT NULL DEFAULT '',
        material text NOT NULL DEFAULT '',
        color text NOT NULL DEFAULT '',
        colors jsonb NOT NULL DEFAULT '[]'::jsonb,
        dimensions text NOT NULL DEFAULT '',
        origin_source text NOT NULL DEFAULT '',
        import_cost numeric,
        retail_price numeric,
        currency text NOT NULL DEFAULT 'USD',
        hashtags jsonb NOT NULL DEFAULT '[]'::jsonb,
        objects jsonb NOT NULL DEFAULT '[]'::jsonb,
        barcodes jsonb NOT NULL DEFAULT '[]'::jsonb,
        extracted_text text NOT NULL DEFAULT '',
        provenance jsonb NOT NULL DEFAULT '{}'::jsonb,
        analysis bytea,
        corrections jsonb NOT NULL DEFAULT '{}'::jsonb,
        corrected_fields jsonb NOT NULL DEFAULT '[]'::jsonb,
        search_text text NOT NULL DEFAULT '',
        version bigint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX IF NOT EXISTS inventory_owner_created ON inventory_items (owner_id, created_at DESC, id);
      CREATE INDEX IF NOT EXISTS inventory_version ON inventory_items (version);

      -- What the catalogue knows of each uploaded file (stats, activity names, the attempt guard).
      CREATE TABLE IF NOT EXISTS file_facts (
        file_id uuid PRIMARY KEY,
        owner_id text NOT NULL,
        file_name text NOT NULL DEFAULT '',
        content_type text NOT NULL DEFAULT '',
        size bigint NOT NULL DEFAULT 0,
        status text NOT NULL DEFAULT 'queued',
        attempt integer NOT NULL DEFAULT 0,
        processed_attempt integer NOT NULL DEFAULT 0,
        result_type text,
        deleted boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX IF NOT EXISTS file_facts_owner ON file_facts (owner_id);

      CREATE TABLE IF NOT EXISTS activity (
        id bigserial PRIMARY KEY,
        owner_id text NOT NULL,
        type text NOT NULL,
        message text NOT NULL,
        file_id uuid,
        file_name text NOT NULL DEFAULT '',
        entity_type text,
        entity_id uuid,
        at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX IF NOT EXISTS activity_owner_id ON activity (owner_id, id DESC);

      -- Event ids already applied (redelivery of file.uploaded / file.status / file.deleted is a no-op).
      CREATE TABLE IF NOT EXISTS consumed_events (
        event_id text PRIMARY KEY,
        topic text NOT NULL,
        consumed_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX IF NOT EXISTS consumed_events_at ON consumed_events (consumed_at);
    `,
  },
  {
    id: '0002_activity_by_time',
    sql: `CREATE INDEX IF NOT EXISTS activity_owner_at ON activity (owner_id, at DESC, id DESC);`,
  },
  {
    // The vault's usual sorts: page 1 and the export's keyset batches read an index, not a full sort.
    id: '0003_document_sort_indexes',
    sql: `
      CREATE INDEX IF NOT EXISTS documents_owner_title ON documents (owner_id, lower(title), id);
      CREATE INDEX IF NOT EXISTS documents_owner_year ON documents (owner_id, COALESCE(publication_year, 0), id);
    `,
  },
  {
    // Kaboodles: a user's ordered collections of documents and inventory items (each member with a
    // note), or smart ones whose members are a saved search's current results (`smart` set). Member
    // rows name entities by kind and id without a foreign key (two tables); deleting an entity deletes
    // its memberships in the same transaction. Names are unique per owner, ignoring case.
    id: '0004_kaboodles',
    sql: `
      CREATE TABLE IF NOT EXISTS kaboodles (
        id uuid PRIMARY KEY,
        owner_id text NOT NULL,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        smart jsonb,
        cover_type text,
        cover_id uuid,
        version bigint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX IF NOT EXISTS kaboodles_owner_name ON kaboodles (owner_id, lower(name));
      CREATE INDEX IF NOT EXISTS kaboodles_owner_updated ON kaboodles (owner_id, updated_at DESC, id);

      CREATE TABLE IF NOT EXISTS kaboodle_members (
        kaboodle_id uuid NOT NULL REFERENCES kaboodles (id) ON DELETE CASCADE,
        entity_type text NOT NULL CHECK (entity_type IN ('document', 'inventory_item')),
        entity_id uuid NOT NULL,
        position integer NOT NULL,
        note text NOT NULL DEFAULT '',
        added_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (kaboodle_id, entity_type, entity_id)
      );
      CREATE INDEX IF NOT EXISTS kaboodle_members_order ON kaboodle_members (kaboodle_id, position);
      CREATE INDEX IF NOT EXISTS kaboodle_members_entity ON kaboodle_members (entity_id, entity_type);

      -- Near-duplicate pairs the owner reviewed and kept apart (a < b by kind:id, so one row per pair).
      CREATE TABLE IF NOT EXISTS dismissed_duplicates (
        owner_id text NOT NULL,
        a_type text NOT NULL,
        a_id uuid NOT NULL,
        b_type text NOT NULL,
        b_id uuid NOT NULL,
        dismissed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (owner_id, a_type, a_id, b_type, b_id)
      );

      -- Insights group by when things arrived.
      CREATE INDEX IF NOT EXISTS inventory_owner_category ON inventory_items (owner_id, category);
    `,
  },
  {
    // The first-run sample library (issue 18): what a sample file became is marked, so screens can
    // say "Sample" (the file's own flag travels in FileRef.sample).
    id: '0005_sample_entities',
    sql: `
      ALTER TABLE documents ADD COLUMN IF NOT EXISTS sample boolean NOT NULL DEFAULT false;
      ALTER TABLE inventory_items ADD COLUMN IF NOT EXISTS sample boolean NOT NULL DEFAULT false;
    `,
  },
];
