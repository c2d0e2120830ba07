// BlobStore port on S3 (MinIO in production, s3rver on CI machines) with the `minio` client.
// Streams only: a put with a known size goes straight through; with an unknown size the body is
// spooled to a temp file first so the request can carry its length, never buffered in memory.
// Every object is one streamed PUT (S3 and MinIO take up to 5 GiB so), which also suits s3rver:
// it implements no multipart upload.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'minio';
import { InputError, NotFoundError, wrapError } from '../errors.ts';
import { assertSafeKey } from '../ports/blob-store.ts';
import type { BlobInfo, BlobStore, ByteRange, PutOptions } from '../ports/blob-store.ts';
import { DEFAULT_CONTENT_TYPE, assertPutOptions, createSizeGuard, resolveRange } from './blob-common.ts';

export interface S3BlobStoreOptions {
  endPoint: string;
  port?: number;
  useSSL?: boolean;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
  /** Where unknown-size bodies are spooled (default: the OS temp dir). */
  spoolDir?: string;
  /** Force path-style URLs (default true: s3rver and MinIO need them; AWS works with them too). */
  pathStyle?: boolean;
}

/** The most one S3 PUT takes; larger objects would need multipart, which s3rver lacks. */
export const S3_MAX_PUT_BYTES = 5 * 1024 ** 3;
const STAT_CONCURRENCY = 16;

export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const { bucket } = options;
  const region = options.region ?? 'us-east-1';
  const client = new Client({
    endPoint: options.endPoint,
    ...(options.port !== undefined && { port: options.port }),
    useSSL: options.useSSL ?? false,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    region,
    pathStyle: options.pathStyle ?? true,
  });
  // The minio client's putObject reads a body of up to a part size (64 MiB) into memory to hash it.
  // Uploads go through this second client instead: one streamed PUT with an unsigned payload
  // (what minio itself does over HTTPS; S3 and MinIO accept it over HTTP too), and no automatic
  // retry, which could not replay a stream anyway.
  const uploader = new Client({
    endPoint: options.endPoint,
    ...(options.port !== undefined && { port: options.port }),
    useSSL: options.useSSL ?? false,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    region,
    pathStyle: options.pathStyle ?? true,
    retryOptions: { disableRetry: true },
  });
  uploader.enableSHA256 = false;
  let closed = false;
  let bucketReady: Promise<void> | undefined;

  const where = `s3 bucket ${bucket}`;
  const assertOpen = (): void => {
    if (closed) throw new Error('blob store is closed');
  };

  // Created on first use; a concurrent creator (another process) winning the race is fine.
  const ensureBucket = (): Promise<void> => {
    bucketReady ??= (async () => {
      if (await client.bucketExists(bucket)) return;
      try {
        await client.makeBucket(bucket, region);
      } catch (err) {
        const code = s3Code(err);
        if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw err;
      }
    })().catch((err: unknown) => {
      bucketReady = undefined;
      throw wrapError(`creating ${where}`, err);
    });
    return bucketReady;
  };

  async function statKey(key: string): Promise<BlobInfo | null> {
    try {
      const s = await client.statObject(bucket, key);
      return {
        key,
        size: s.size,
        contentType: contentTypeOf(s.metaData),
        lastModified: new Date(s.lastModified),
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw wrapError(`reading blob ${key} from ${where}`, err);
    }
  }

  async function putSized(key: string, body: Readable, size: number, contentType: string): Promise<void> {
    if (size > S3_MAX_PUT_BYTES) {
      body.destroy();
      throw new InputError(`putting blob ${key}: ${size} bytes is more than one S3 upload takes (5 GiB)`);
    }
    const guard = createSizeGuard(key, size);
    // the guard fails the upload if the body's length does not match the declared size
    body.on('error', (err) => guard.destroy(err));
    body.pipe(guard);
    const res = await uploader.makeRequestStreamAsync(
      {
        method: 'PUT',
        bucketName: bucket,
        objectName: key,
        headers: { 'Content-Length': size, 'Content-Type': contentType },
      },
      guard,
      '',
      [200],
      region,
    );
    res.resume(); // drain the (empty) response so the socket goes back to the agent
    if (guard.errored) throw guard.errored;
  }

  return {
    kind: 's3',

    async put(key: string, body: Readable, opts: PutOptions): Promise<BlobInfo> {
      assertOpen();
      assertSafeKey(key);
      assertPutOptions(key, opts);
      await ensureBucket();
      try {
        if (opts.size !== undefined) {
          await putSized(key, body, opts.size, opts.contentType);
        } else {
          const dir = await mkdtemp(join(options.spoolDir ?? tmpdir(), 'kaboodle-spool-'));
          try {
            const file = join(dir, randomUUID());
            await pipeline(body, createWriteStream(file, { flags: 'wx' }));
            const { size } = await stat(file);
            await putSized(key, createReadStream(file), size, opts.contentType);
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        }
      } catch (err) {
        if (err instanceof Error && err.name === 'InputError') throw err;
        throw wrapError(`putting blob ${key} to ${where}`, err);
      }
      const info = await statKey(key);
      if (!info) throw new Error(`putting blob ${key} to ${where}: not found right after the upload`);
      return info;
    },

    async get(key: string, range?: ByteRange): Promise<{ info: BlobInfo; body: Readable }> {
      assertOpen();
      assertSafeKey(key);
      const info = await statKey(key);
      if (!info) throw new NotFoundError(`blob ${key} not found`);
      try {
        if (!range) return { info, body: await client.getObject(bucket, key) };
        const { start, end } = resolveRange(key, info.size, range);
        const length = end - start + 1;
        const res = (await client.getPartialObject(bucket, key, start, length)) as Readable & {
          statusCode?: number;
          headers?: Record<string, string | string[] | undefined>;
        };
        // trust the bytes the server says it sent, not the ones asked for: s3rver answers
        // `bytes=0-0` with the whole object (206, Content-Range 0-9/10); a server ignoring Range sends 200
        const served = /^bytes (\d+)-(\d+)\//.exec(String(res.headers?.['content-range'] ?? ''));
        const from = res.statusCode === 200 ? 0 : served ? Number(served[1]) : start;
        const to = res.statusCode === 200 ? info.size - 1 : served ? Number(served[2]) : end;
        if (from === start && to === end) return { info, body: res };
        if (from > start || to < end) {
          res.destroy();
          throw new Error(`server sent bytes ${from}-${to} for a request of ${start}-${end}`);
        }
        return { info, body: sliceStream(res, start - from, length) };
      } catch (err) {
        if (isNotFound(err)) throw new NotFoundError(`blob ${key} not found`);
        if (err instanceof Error && err.name === 'InputError') throw err;
        throw wrapError(`reading blob ${key} from ${where}`, err);
      }
    },

    async stat(key: string): Promise<BlobInfo | null> {
      assertOpen();
      assertSafeKey(key);
      return statKey(key);
    },

    async delete(key: string): Promise<void> {
      assertOpen();
      assertSafeKey(key);
      try {
        await client.removeObject(bucket, key);
      } catch (err) {
        if (isNotFound(err)) return;
        throw wrapError(`deleting blob ${key} from ${where}`, err);
      }
    },

    async *list(prefix: string): AsyncIterable<BlobInfo> {
      assertOpen();
      if (typeof prefix !== 'string') throw new Error('list needs a prefix string (use "" for everything)');
      await ensureBucket();
      // S3 listings carry no content type: stat the keys, a batch at a time, keeping listing order
      let batch: string[] = [];
      const flush = async function* (): AsyncGenerator<BlobInfo> {
        const infos = await Promise.all(batch.map((k) => statKey(k)));
        batch = [];
        for (const info of infos) if (info) yield info; // deleted meanwhile: skip
      };
      try {
        for await (const item of client.listObjectsV2(bucket, prefix, true) as AsyncIterable<{
          name?: string;
        }>) {
          if (!item.name) continue; // common prefixes (not produced with recursive listing)
          batch.push(item.name);
          if (batch.length >= STAT_CONCURRENCY) yield* flush();
        }
        yield* flush();
      } catch (err) {
        throw wrapError(`listing blobs under ${JSON.stringify(prefix)} in ${where}`, err);
      }
    },

    async ping(): Promise<void> {
      assertOpen();
      try {
        await ensureBucket();
        await client.bucketExists(bucket);
      } catch (err) {
        throw wrapError(`pinging ${where}`, err);
      }
    },

    async close(): Promise<void> {
      closed = true;
    },
  };
}

/** Bytes [start, start + length) of source, as a stream; the rest of the source is discarded. */
function sliceStream(source: Readable, start: number, length: number): Readable {
  let skipped = 0;
  let passed = 0;
  const out = new Transform({
    transform(chunk: Buffer, _enc, done) {
      let c = chunk;
      if (skipped < start) {
        const skip = Math.min(start - skipped, c.length);
        skipped += skip;
        c = c.subarray(skip);
      }
      if (c.length && passed < length) {
        const take = c.subarray(0, length - passed);
        passed += take.length;
        this.push(take);
      }
      if (passed >= length) {
        this.push(null);
        source.unpipe(out);
        source.destroy();
      }
      done();
    },
  });
  source.on('error', (err) => out.destroy(err));
  return source.pipe(out);
}

function s3Code(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

function isNotFound(err: unknown): boolean {
  const code = s3Code(err);
  return code === 'NoSuchKey' || code === 'NotFound' || code === 'NoSuchObject';
}

function contentTypeOf(meta: Record<string, unknown> | undefined): string {
  if (!meta) return DEFAULT_CONTENT_TYPE;
  for (const [k, v] of Object.entries(meta)) {
    if (k.toLowerCase() === 'content-type' && typeof v === 'string' && v) return v;
  }
  return DEFAULT_CONTENT_TYPE;
}
