// Streams one multipart upload straight into the blob store (never holding the file in memory),
// measuring size and SHA-256 on the way, and applies the product's file rules. The request is read to
// its end even when the file is refused, so the client always gets the answer instead of a reset.
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { Readable } from 'node:stream';
import type { Request } from 'express';
import busboy from 'busboy';
import { ClientAbortError, InputError, TooLargeError, UnavailableError } from '@kaboodle/platform';
import type { BlobStore } from '@kaboodle/platform';
import {
  FILE_NAME_REQUIRED,
  MAX_FILE_BYTES,
  SNIFF_BYTES,
  cleanFileName,
  resolveContentType,
  sizeExceededMessage,
  sniffContentType,
  unsupportedTypeMessage,
} from './file-rules.ts';

/** Past this much, stop reading a refused upload and close the connection (its size comes from Content-Length). */
const READ_CAP_BYTES = 256 * 1024 * 1024;

export interface ReceivedUpload {
  name: string;
  size: number;
  contentType: string;
  /** What the first bytes show (see sniffContentType). */
  sniffedType: string;
  sha256: string;
  fields: Record<string, string>;
}

export async function receiveUpload(
  req: Request,
  blobs: BlobStore,
  blobKey: string,
): Promise<ReceivedUpload> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    throw new InputError('Send the file as multipart/form-data in a field named "file"');
  }
  let bb: busboy.Busboy;
  try {
    // utf8: browsers send file names as UTF-8 (busboy's default would read them as latin1)
    bb = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: { files: 1, fields: 16, fieldSize: 16 * 1024, parts: 20 },
    });
  } catch (err) {
    throw new InputError(`Malformed upload: ${(err as Error).message}`);
  }

  const fields: Record<string, string> = {};
  let refusal: Error | undefined;
  let stored: Promise<void> | undefined;
  let received: Omit<ReceivedUpload, 'fields'> | undefined;
  let body: PassThrough | undefined;
  const refuse = (err: Error) => {
    refusal ??= err;
  };

  // Every stream this request touches (the socket, busboy, the file part, the PassThrough into the
  // blob store) reports its failure here: the first one ends the upload, the blob-store put is
  // destroyed (so it settles and removes its temp file at once) and the request's promise rejects.
  // An 'error' event with no listener would end the process, so each stream gets one.
  let settle!: { resolve: () => void; reject: (err: Error) => void };
  let failure: Error | undefined;
  const fail = (err: Error) => {
    if (failure) return;
    failure = err;
    body?.destroy(err);
    req.unpipe(bb);
    settle.reject(err);
  };
  const done = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const malformed = (err: Error) =>
    fail(err instanceof InputError ? err : new InputError(`Malformed upload: ${err.message}`));

  bb.on('field', (name, value, info) => {
    // A "file" part without a filename arrives as a plain field: a file with no name.
    if (name === 'file') refuse(new InputError(FILE_NAME_REQUIRED));
    if (info.valueTruncated) refuse(new InputError(`The field "${name}" is too long`));
    fields[name] = value;
  });
  bb.on('filesLimit', () => refuse(new InputError('Upload one file per request')));
  bb.on('partsLimit', () => refuse(new InputError('Too many parts in the upload')));
  bb.on('fieldsLimit', () => refuse(new InputError('Too many fields in the upload')));
  bb.on('file', (field, stream: Readable, info) => {
    // busboy destroys the part with "Unexpected end of form" when the body ends early.
    stream.on('error', malformed);
    if (field !== 'file' || received || stored) {
      refuse(
        new InputError(field === 'file' ? 'Upload one file per request' : `Unexpected file field "${field}"`),
      );
      stream.resume();
      return;
    }
    const name = cleanFileName(info.filename ?? '');
    const contentType = name ? resolveContentType(info.mimeType ?? '', name) : null;
    if (!name) refuse(new InputError(FILE_NAME_REQUIRED));
    else if (!contentType) {
      const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1];
      const declared = (info.mimeType ?? '').split(';')[0]!.trim();
      refuse(
        new InputError(
          unsupportedTypeMessage(
            declared && declared !== 'application/octet-stream' ? declared : (ext ?? 'unknown'),
          ),
        ),
      );
    }
    if (refusal) {
      stream.resume();
      return;
    }
    const hash = createHash('sha256');
    let size = 0;
    const head: Buffer[] = [];
    let headBytes = 0;
    const into = new PassThrough();
    // Destroyed by fail() or a size refusal, possibly before the store has piped it (its put awaits
    // set-up first): the cause is already reported, so the stream's own 'error' needs a listener only.
    into.on('error', () => undefined);
    body = into;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FILE_BYTES) {
        if (!refusal) {
          refuse(new TooLargeError(sizeExceededMessage(size)));
          into.destroy(new TooLargeError(sizeExceededMessage(size)));
        }
        if (size > READ_CAP_BYTES) {
          const declared = Number(req.headers['content-length']);
          refusal = new TooLargeError(
            sizeExceededMessage(Number.isFinite(declared) && declared > size ? declared : size),
          );
          req.unpipe(bb);
          settle.resolve();
        }
        return;
      }
      if (refusal) return; // the blob store failed: read the rest so the client gets the answer
      if (headBytes < SNIFF_BYTES) {
        head.push(chunk.subarray(0, SNIFF_BYTES - headBytes));
        headBytes += Math.min(chunk.length, SNIFF_BYTES - headBytes);
      }
      hash.update(chunk);
      // Back-pressure: pause the upload while the blob store catches up.
      if (!into.write(chunk)) {
        stream.pause();
        into.once('drain', () => stream.resume());
      }
    });
    stream.on('end', () => {
      if (!refusal) {
        received = {
          name,
          size,
          contentType: contentType!,
          sniffedType: sniffContentType(Buffer.concat(head), contentType!),
          sha256: hash.digest('hex'),
        };
        into.end();
        return;
      }
      if (refusal instanceof TooLargeError) refusal = new TooLargeError(sizeExceededMessage(size));
      // Refused while this part was being stored (busboy reports a second file or too many parts
      // before this part's 'end'): the put must settle and remove its temp file, or the request
      // would wait for it forever with the temp file open.
      into.destroy(refusal);
    });
    stored = blobs.put(blobKey, into, { contentType: contentType! }).then(
      () => undefined,
      (err: unknown) => {
        if (failure) return; // the request failed first: that is the answer
        // A store that is down is a 503 the user can retry, not a fault of their file.
        if (!refusal)
          refuse(new UnavailableError(`storing the upload: ${(err as Error)?.message}`, { cause: err }));
        stream.resume();
      },
    );
  });
  bb.on('close', () => settle.resolve());
  bb.on('error', malformed);
  req.on('error', (err) => fail(new ClientAbortError(`reading the upload: ${err.message}`, { cause: err })));
  // A client that goes away mid-upload: 'close' comes before the body's end.
  req.on('close', () => {
    if (!req.complete) fail(new ClientAbortError('the client closed the connection during the upload'));
  });
  req.pipe(bb);
  try {
    await done;
  } catch (err) {
    // The put settles once its body is destroyed (temp file removed, handle closed); then drop the key.
    await stored;
    if (stored) await blobs.delete(blobKey).catch(() => undefined);
    throw err;
  }
  await stored;

  if (refusal || !received) {
    if (stored) await blobs.delete(blobKey).catch(() => undefined);
    throw refusal ?? new InputError('No file was uploaded: send it in a multipart field named "file"');
  }
  return { ...received, fields };
}
