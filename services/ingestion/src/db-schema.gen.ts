// Generated from ingestion's migrations by generateDatabaseTypes (make db-types): do not edit.
import type { DestinationName, FileStatus, ResultType } from './file.repository.ts';
import type { ColumnType } from 'kysely';

export type Generated<T> =
  T extends ColumnType<infer S, infer I, infer U>
    ? ColumnType<S, I | undefined, U>
    : ColumnType<T, T | undefined, T>;

export type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface BlobDeletions {
  attempts: Generated<number>;
  blob_key: string;
  created_at: Generated<Timestamp>;
  last_error: string | null;
}

export interface Files {
  attempt: Generated<number>;
  blob_key: string;
  content_type: string;
  created_at: Generated<Timestamp>;
  destination: Generated<DestinationName>;
  dispatches: Generated<number>;
  error: string | null;
  id: string;
  instructions: Generated<string>;
  name: string;
  owner_id: string;
  progress: Generated<number>;
  result_id: string | null;
  result_type: ResultType | null;
  sample: Generated<boolean>;
  sha256: string;
  size: number;
  sniffed_type: string | null;
  source_url: string | null;
  stage: string | null;
  status: Generated<FileStatus>;
  updated_at: Generated<Timestamp>;
}

export interface DB {
  blob_deletions: BlobDeletions;
  files: Files;
}
