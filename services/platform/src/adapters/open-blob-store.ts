// Picks the BlobStore adapter by configuration alone: S3_ENDPOINT means S3/MinIO, else a directory.
import { join } from 'node:path';
import type { BlobStore } from '../ports/blob-store.ts';
import { createLocalBlobStore } from './local-blob-store.ts';
import { createS3BlobStore } from './s3-blob-store.ts';

export { createLocalBlobStore, createS3BlobStore };
export type { LocalBlobStoreOptions } from './local-blob-store.ts';
export type { S3BlobStoreOptions } from './s3-blob-store.ts';

export interface OpenBlobStoreOptions {
  /** S3_ENDPOINT, a URL such as `http://127.0.0.1:4569` or `https://minio.example:9000`. */
  s3Endpoint?: string | undefined;
  s3AccessKey?: string | undefined;
  s3SecretKey?: string | undefined;
  s3Region?: string | undefined;
  /** Bucket (S3) or folder name (local) of this service's objects, e.g. `kaboodle-files`. */
  bucket: string;
  /** KABOODLE_DATA_DIR: the local store keeps objects in `<dataDir>/blobs/<bucket>`. */
  dataDir: string;
}

export function openBlobStore(options: OpenBlobStoreOptions): BlobStore {
  if (options.s3Endpoint) {
    let url: URL;
    try {
      url = new URL(options.s3Endpoint);
    } catch {
      throw new Error(`S3_ENDPOINT is not a URL: ${JSON.stringify(options.s3Endpoint)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error(`S3_ENDPOINT must be http:// or https://, got ${JSON.stringify(options.s3Endpoint)}`);
    }
    if (!options.s3AccessKey || !options.s3SecretKey) {
      throw new Error('S3_ENDPOINT is set but S3_ACCESS_KEY or S3_SECRET_KEY is missing');
    }
    const useSSL = url.protocol === 'https:';
    return createS3BlobStore({
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : useSSL ? 443 : 80,
      useSSL,
      accessKey: options.s3AccessKey,
      secretKey: options.s3SecretKey,
      region: options.s3Region ?? 'us-east-1',
      bucket: options.bucket,
    });
  }
  return createLocalBlobStore({ root: join(options.dataDir, 'blobs', options.bucket) });
}
