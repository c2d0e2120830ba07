// What the local and S3 blob stores share: size enforcement on the way in, range checks, errors.
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import { InputError } from '../errors.ts';
import type { ByteRange, PutOptions } from '../ports/blob-store.ts';

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export function assertPutOptions(key: string, options: PutOptions): void {
  if (!options || typeof options.contentType !== 'string' || options.contentType.trim() === '') {
    throw new InputError(`putting blob ${key}: a content type is required`);
  }
  if (options.size !== undefined && (!Number.isSafeInteger(options.size) || options.size < 0)) {
    throw new InputError(
      `putting blob ${key}: size must be a whole number of bytes, got ${String(options.size)}`,
    );
  }
}

/**
 * Counts bytes on the way through and fails the stream when a declared size is exceeded or not
 * reached, so a lying caller cannot store a truncated or padded object under the declared size.
 */
export function createSizeGuard(key: string, expected: number | undefined): Transform & { bytes(): number } {
  let seen = 0;
  const guard = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      seen += chunk.length;
      if (expected !== undefined && seen > expected) {
        done(new InputError(`putting blob ${key}: body is longer than the declared ${expected} bytes`));
        return;
      }
      done(null, chunk);
    },
    flush(done: TransformCallback) {
      if (expected !== undefined && seen !== expected) {
        done(new InputError(`putting blob ${key}: body has ${seen} bytes, ${expected} were declared`));
        return;
      }
      done();
    },
  });
  return Object.assign(guard, { bytes: () => seen });
}

/** The inclusive [start, end] to read from an object of `size` bytes, or an InputError. */
export function resolveRange(key: string, size: number, range: ByteRange): { start: number; end: number } {
  const { start } = range;
  if (!Number.isSafeInteger(start) || start < 0)
    throw new InputError(`reading blob ${key}: invalid range start ${String(start)}`);
  if (range.end !== undefined && (!Number.isSafeInteger(range.end) || range.end < start)) {
    throw new InputError(`reading blob ${key}: invalid range end ${String(range.end)}`);
  }
  if (start >= size)
    throw new InputError(`reading blob ${key}: range starts at ${start} but the blob has ${size} bytes`);
  return { start, end: Math.min(range.end ?? size - 1, size - 1) };
}
