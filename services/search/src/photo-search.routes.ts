// Handlers of the photo search operations (photo-search.api.ts). The photo is read from the body with
// a hard cap (the 20 MB file limit and message of docs/product.md#validation); a client that leaves stops the
// reading.
import busboy from 'busboy';
import type { Request } from 'express';
import { ClientAbortError, createApiRouter, InputError, TooLargeError } from '@kaboodle/platform';
import type { ApiRouter, TokenVerifier } from '@kaboodle/platform';
import type { SearchHit } from './index/search-index.port.ts';
import { findByPhoto, imageNeighbours, MAX_PHOTO_BYTES, PHOTO_TYPES } from './photo-search.api.ts';
import type { PhotoSearch } from './photo-search.service.ts';
import { admitHttp } from './search-admission.ts';
import type { SearchAdmission } from './search-admission.ts';

const tooLarge = (bytes: number) =>
  new TooLargeError(`File size exceeds 20MB limit (${(bytes / 1024 / 1024).toFixed(2)}MB)`);

const unsupported = (type: string) =>
  new InputError(
    type
      ? `Unsupported file type: ${type}`
      : 'Send the photo as the body (Content-Type image/jpeg or image/png)',
  );

/** The `photo` file of a multipart form (what a browser's FormData sends), capped like a raw body. */
function readMultipartPhoto(req: Request): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: MAX_PHOTO_BYTES, fields: 10 } });
    } catch (err) {
      reject(new InputError(`The form cannot be read: ${(err as Error).message}`));
      return;
    }
    // The file's outcome, settled once the form has been read to its end ('close'). A refusal is
    // kept as a value, never a promise left rejected, so nothing can end the process meanwhile.
    let found: { photo?: Buffer; error?: Error } | undefined;
    let reading: Promise<void> | undefined;
    parser.on('file', (_name, stream, info) => {
      // a form cut short makes every file stream emit 'error': never an unhandled one
      stream.on('error', () => undefined);
      if (found || reading) {
        stream.resume(); // one photo only; the rest is drained
        return;
      }
      const type = info.mimeType.toLowerCase();
      if (!(PHOTO_TYPES as readonly string[]).includes(type)) {
        stream.resume();
        found = { error: unsupported(type) };
        return;
      }
      reading = new Promise<void>((done) => {
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (c: Buffer) => {
          size += c.length;
          chunks.push(c);
        });
        stream.on('limit', () => {
          found = { error: tooLarge(size + 1) };
          stream.resume();
        });
        stream.on('error', (err: Error) => {
          found ??= { error: new InputError(`The photo could not be read: ${err.message}`) };
          done();
        });
        stream.on('end', () => {
          found ??= { photo: Buffer.concat(chunks) };
          done();
        });
      });
    });
    parser.on('error', (err) => reject(new InputError(`The form cannot be read: ${(err as Error).message}`)));
    parser.on('close', () => {
      void (reading ?? Promise.resolve()).then(() => {
        if (found?.photo) resolve(found.photo);
        else reject(found?.error ?? new InputError('Choose a photo (the form has no photo file)'));
      });
    });
    req.on('aborted', () =>
      reject(new ClientAbortError('the client closed the connection during the upload')),
    );
    req.pipe(parser);
  });
}

/** The photo as bytes (the raw body or a form's file), refusing more than MAX_PHOTO_BYTES. */
async function readPhoto(req: Request): Promise<Buffer> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'multipart/form-data') {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_PHOTO_BYTES + 64 * 1024) {
      req.resume();
      throw tooLarge(declared);
    }
    const photo = await readMultipartPhoto(req);
    if (photo.length === 0) throw new InputError('The photo is empty');
    return photo;
  }
  if (!(PHOTO_TYPES as readonly string[]).includes(type)) {
    throw new InputError(
      type
        ? `Unsupported file type: ${type}`
        : 'Send the photo as the body (Content-Type image/jpeg or image/png)',
    );
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_PHOTO_BYTES) {
    req.resume(); // drain so the answer reaches the client
    throw tooLarge(declared);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_PHOTO_BYTES) {
        req.resume();
        throw tooLarge(size);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    if (err instanceof TooLargeError) throw err;
    throw new ClientAbortError('the client closed the connection during the upload', { cause: err });
  }
  if (size === 0) throw new InputError('The photo is empty');
  return Buffer.concat(chunks);
}

export function photoHitBody(h: SearchHit) {
  const isDocument = h.entityType === 'document';
  return {
    type: h.entityType,
    id: h.id,
    title: isDocument ? h.title : '',
    name: isDocument ? '' : h.title,
    description: h.description,
    content: h.content,
    url: h.url,
    image_url: h.imageUrl,
    score: Math.round(h.score * 10_000) / 10_000,
    category: h.category,
    hashtags: h.hashtags,
  };
}

export function createPhotoSearchRouter(deps: {
  verifier: TokenVerifier;
  photos: PhotoSearch;
  /** The same bound as text searches: a photo search embeds a photo, heavier than a query. */
  admission: SearchAdmission;
}): ApiRouter {
  const api = createApiRouter({ verifier: deps.verifier });

  api.handle(findByPhoto, async ({ req, res, query, user, reply }) => {
    const started = performance.now();
    // the upload is read (and capped) first: its turn is for the embedding and the index
    const photo = await readPhoto(req);
    const found = await admitHttp(deps.admission, res, reply, (signal) =>
      deps.photos.findByPhoto(user.id, photo, query.limit, signal),
    );
    if (!found) return;
    res.set(
      'Server-Timing',
      `embed;dur=${found.timing.embed.toFixed(2)}, index;dur=${found.timing.index.toFixed(2)}, total;dur=${(performance.now() - started).toFixed(2)}`,
    );
    reply(200, { results: found.results.map(photoHitBody), model: found.model });
  });

  api.handle(imageNeighbours, async ({ res, query, user, reply }) => {
    const hits = await admitHttp(deps.admission, res, reply, () =>
      deps.photos.neighbours(user.id, { type: query.type, id: query.id }, query.limit),
    );
    if (hits) reply(200, { results: hits.map(photoHitBody) });
  });

  return api;
}
