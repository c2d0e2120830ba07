// Item photos at gallery size: the gallery must not pull 20 MB originals, so each width the server
// offers is rendered once (sharp: upright, no enlargement, JPEG) and kept in the blob store beside
// the original under a key naming the photo's hash, so a changed photo never serves an old picture.
import { Readable } from 'node:stream';
import type { BlobStore, Logger } from '@kaboodle/platform';
import { NotFoundError } from '@kaboodle/platform';

/** Decoding more pixels than this is refused (the vision step refuses the same images). */
const MAX_PIXELS = 100_000_000;
/** Originals are at most 20 MB; a little slack for what a blob store reports. */
const MAX_ORIGINAL_BYTES = 21 * 1024 * 1024;

export interface Thumbnail {
  bytes: Buffer;
  contentType: 'image/jpeg';
}

export interface ThumbnailSource {
  owner_id: string;
  id: string;
  blob_key: string;
  sha256: string;
}

export const thumbnailKey = (item: ThumbnailSource, width: number): string =>
  `thumbnails/${item.owner_id}/${item.id}/${(item.sha256 || 'nohash').slice(0, 16)}-${width}.jpg`;

async function readAll(body: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > max) {
      body.destroy();
      throw new Error(`the original photo is larger than ${max} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function createThumbnailer(deps: { blobs: BlobStore; logger: Logger }) {
  const { blobs, logger } = deps;
  /** One rendering per key at a time: a gallery asking twice waits for the first. */
  const rendering = new Map<string, Promise<Thumbnail>>();

  async function render(item: ThumbnailSource, width: number, key: string): Promise<Thumbnail> {
    let original: Awaited<ReturnType<BlobStore['get']>>;
    try {
      original = await blobs.get(item.blob_key);
    } catch (err) {
      if (err instanceof NotFoundError) throw new NotFoundError('Image not available');
      throw err;
    }
    const bytes = await readAll(original.body, MAX_ORIGINAL_BYTES);
    // loaded on first use: the web target imports the catalogue's declarations, never sharp
    const { default: sharp } = await import('sharp');
    let out: Buffer;
    try {
      out = await sharp(bytes, { limitInputPixels: MAX_PIXELS })
        .rotate()
        .resize({ width, withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 80, progressive: true })
        .toBuffer();
    } catch (err) {
      // A picture sharp cannot read is "not available", not a server fault.
      throw new NotFoundError('Image not available', { cause: err });
    }
    await blobs
      .put(key, Readable.from([out]), { contentType: 'image/jpeg', size: out.length })
      .catch((err: unknown) =>
        logger.warn({ err, key }, 'could not keep a thumbnail; it is made again next time'),
      );
    return { bytes: out, contentType: 'image/jpeg' };
  }

  return {
    /** The photo `width` pixels wide (or smaller when the original is), made once. */
    async thumbnail(item: ThumbnailSource, width: number): Promise<Thumbnail> {
      const key = thumbnailKey(item, width);
      const kept = await blobs.stat(key).catch(() => null);
      if (kept) {
        try {
          const { body } = await blobs.get(key);
          return { bytes: await readAll(body, MAX_ORIGINAL_BYTES), contentType: 'image/jpeg' };
        } catch (err) {
          logger.warn({ err, key }, 'a kept thumbnail could not be read; making it again');
        }
      }
      let pending = rendering.get(key);
      if (!pending) {
        pending = render(item, width, key).finally(() => rendering.delete(key));
        rendering.set(key, pending);
      }
      return pending;
    },

    /** Forget every thumbnail of an item (it was deleted). */
    async forget(item: { owner_id: string; id: string }): Promise<void> {
      for await (const info of blobs.list(`thumbnails/${item.owner_id}/${item.id}/`)) {
        await blobs.delete(info.key).catch(() => undefined);
      }
    },
  };
}

export type Thumbnailer = ReturnType<typeof createThumbnailer>;
