// BlobStore port: streams only, so a 20 MB object is never held in memory whole.
// Adapters: s3-blob-store.ts (MinIO / any S3, `minio` client), local-blob-store.ts (a directory).
import type { Readable } from 'node:stream';

export interface BlobInfo {
  key: string;
  size: number;
  contentType: string;
  lastModified: Date;
}

export interface PutOptions {
  contentType: string;
  /** Known size in bytes; when absent the adapter spools to a temporary file first (never to memory). */
  size?: number;
}

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive; absent means to the end. */
  end?: number;
}

export interface BlobStore {
  readonly kind: 's3' | 'local';
  put(key: string, body: Readable, options: PutOptions): Promise<BlobInfo>;
  /** Throws NotFoundError when the key does not exist. */
  get(key: string, range?: ByteRange): Promise<{ info: BlobInfo; body: Readable }>;
  /** Null when the key does not exist. */
  stat(key: string): Promise<BlobInfo | null>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  list(prefix: string): AsyncIterable<BlobInfo>;
  /** Throws when the store cannot be reached (used by /readyz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Keys are `<segment>/<segment>`: no empty segments, no `.`/`..`, no backslashes or control characters. */
export function assertSafeKey(key: string): void {
  if (
    key.length === 0 ||
    key.length > 512 ||
    key.startsWith('/') ||
    // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
    /[\\\u0000-\u001f]/.test(key) ||
    key.split('/').some((s) => s === '' || s === '.' || s === '..')
  ) {
    throw new Error(`unsafe blob key: ${JSON.stringify(key)}`);
  }
}
