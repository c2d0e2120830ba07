// BlobStore port on a local directory (one machine, tests). Objects are written to a temp file and
// renamed into place, so readers never see half an object. Layout under root:
//   objects/<dir>.d/<dir>.d/<name>.blob        the bytes
//   objects/<dir>.d/<dir>.d/<name>.blob.json   {"contentType": …}
// Directory segments end in `.d` and object names in `.blob`, so keys `a/b` and `a/b/c` (both legal
// in S3) never collide as file and directory. Size and mtime come from the file itself.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { NotFoundError } from '../errors.ts';
import { assertSafeKey } from '../ports/blob-store.ts';
import type { BlobInfo, BlobStore, ByteRange, PutOptions } from '../ports/blob-store.ts';
import { DEFAULT_CONTENT_TYPE, assertPutOptions, createSizeGuard, resolveRange } from './blob-common.ts';
import { wrapError } from '../errors.ts';

export interface LocalBlobStoreOptions {
  /** Directory that holds everything (created when missing). */
  root: string;
}

const OBJ = '.blob';
const DIR = '.d';
const META = '.json';
// leaves room for the suffixes inside the usual 255-byte file name limit
const MAX_SEGMENT_BYTES = 240;

export function createLocalBlobStore(options: LocalBlobStoreOptions): BlobStore {
  const objects = join(options.root, 'objects');
  const tmp = join(options.root, 'tmp');
  let closed = false;
  let ready: Promise<void> | undefined;

  const init = (): Promise<void> => {
    ready ??= Promise.all([mkdir(objects, { recursive: true }), mkdir(tmp, { recursive: true })]).then(
      () => undefined,
      (err: unknown) => {
        ready = undefined;
        throw wrapError(`creating blob store directories under ${options.root}`, err);
      },
    );
    return ready;
  };

  function assertOpen(): void {
    if (closed) throw new Error('blob store is closed');
  }

  function pathsFor(key: string): { dir: string; data: string; meta: string } {
    assertSafeKey(key);
    const segments = key.split('/');
    for (const s of segments) {
      if (Buffer.byteLength(s) > MAX_SEGMENT_BYTES)
        throw new Error(`unsafe blob key: segment longer than ${MAX_SEGMENT_BYTES} bytes`);
    }
    const name = segments.pop()!;
    const dir = join(objects, ...segments.map((s) => s + DIR));
    const data = join(dir, name + OBJ);
    return { dir, data, meta: data + META };
  }

  async function readContentType(meta: string): Promise<string> {
    try {
      const parsed = JSON.parse(await readFile(meta, 'utf8')) as { contentType?: unknown };
      return typeof parsed.contentType === 'string' ? parsed.contentType : DEFAULT_CONTENT_TYPE;
    } catch {
      return DEFAULT_CONTENT_TYPE;
    }
  }

  async function statKey(key: string): Promise<BlobInfo | null> {
    const p = pathsFor(key);
    try {
      const s = await stat(p.data);
      return { key, size: s.size, contentType: await readContentType(p.meta), lastModified: s.mtime };
    } catch (err) {
      if (isMissing(err)) return null;
      throw wrapError(`reading blob ${key}`, err);
    }
  }

  // Rename into a directory that a concurrent delete may just have pruned: recreate it and retry.
  async function renameInto(dir: string, from: string, to: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      await mkdir(dir, { recursive: true });
      try {
        await rename(from, to);
        return;
      } catch (err) {
        if (!isMissing(err) || attempt >= 3) throw err;
      }
    }
  }

  async function pruneEmptyDirs(dir: string): Promise<void> {
    for (let d = dir; d.startsWith(objects + sep); d = d.slice(0, d.lastIndexOf(sep))) {
      try {
        await rmdir(d);
      } catch {
        return; // not empty (or already gone): stop climbing
      }
    }
  }

  return {
    kind: 'local',

    async put(key: string, body: Readable, opts: PutOptions): Promise<BlobInfo> {
      assertOpen();
      const p = pathsFor(key);
      assertPutOptions(key, opts);
      await init();
      const tmpData = join(tmp, `${randomUUID()}.part`);
      const tmpMeta = `${tmpData}${META}`;
      const guard = createSizeGuard(key, opts.size);
      const writer = createWriteStream(tmpData, { flags: 'wx' });
      try {
        // streamed to disk: memory stays at a few stream buffers whatever the object's size
        await pipeline(body, guard, writer);
        await writeFile(tmpMeta, JSON.stringify({ contentType: opts.contentType }), { flag: 'wx' });
        // meta first: a reader that sees the new bytes also sees their content type
        await renameInto(p.dir, tmpMeta, p.meta);
        await renameInto(p.dir, tmpData, p.data);
      } catch (err) {
        // A body that fails before the file is open (an aborted upload) would otherwise let the open
        // land after the rm below and leave the temp file behind: wait for the descriptor to close.
        if (!writer.closed) await once(writer, 'close').catch(() => undefined);
        await Promise.all([rm(tmpData, { force: true }), rm(tmpMeta, { force: true })]);
        if (err instanceof Error && err.name === 'InputError') throw err;
        throw wrapError(`putting blob ${key}`, err);
      }
      const s = await stat(p.data);
      return { key, size: s.size, contentType: opts.contentType, lastModified: s.mtime };
    },

    async get(key: string, range?: ByteRange): Promise<{ info: BlobInfo; body: Readable }> {
      assertOpen();
      const p = pathsFor(key);
      let handle;
      try {
        // open first: the descriptor keeps the bytes readable even if the key is replaced or deleted
        handle = await open(p.data, 'r');
      } catch (err) {
        if (isMissing(err)) throw new NotFoundError(`blob ${key} not found`);
        throw wrapError(`reading blob ${key}`, err);
      }
      try {
        const s = await handle.stat();
        const info: BlobInfo = {
          key,
          size: s.size,
          contentType: await readContentType(p.meta),
          lastModified: s.mtime,
        };
        const { start, end } = range ? resolveRange(key, s.size, range) : { start: 0, end: s.size - 1 };
        if (end < start) {
          // an empty object: createReadStream cannot express a zero-length range
          await handle.close();
          return { info, body: Readable.from([]) };
        }
        const body = createReadStream('', { fd: handle, start, end });
        return { info, body };
      } catch (err) {
        await handle.close();
        throw err;
      }
    },

    async stat(key: string): Promise<BlobInfo | null> {
      assertOpen();
      return statKey(key);
    },

    async delete(key: string): Promise<void> {
      assertOpen();
      const p = pathsFor(key);
      try {
        await rm(p.data, { force: true });
        await rm(p.meta, { force: true });
      } catch (err) {
        throw wrapError(`deleting blob ${key}`, err);
      }
      await pruneEmptyDirs(p.dir);
    },

    async *list(prefix: string): AsyncIterable<BlobInfo> {
      assertOpen();
      if (typeof prefix !== 'string') throw new Error('list needs a prefix string (use "" for everything)');
      await init();
      // depth-first in key order, descending only into directories that can hold matching keys
      async function* walk(dir: string, keyPrefix: string): AsyncGenerator<BlobInfo> {
        let entries;
        try {
          entries = await readdir(dir, { withFileTypes: true });
        } catch (err) {
          if (isMissing(err)) return;
          throw wrapError(`listing blobs under ${JSON.stringify(prefix)}`, err);
        }
        const items: { sortKey: string; kind: 'dir' | 'obj'; name: string; key: string }[] = [];
        for (const e of entries) {
          if (e.isDirectory() && e.name.endsWith(DIR)) {
            const k = keyPrefix + e.name.slice(0, -DIR.length) + '/';
            if (k.startsWith(prefix) || prefix.startsWith(k))
              items.push({ sortKey: k, kind: 'dir', name: e.name, key: k });
          } else if (e.isFile() && e.name.endsWith(OBJ)) {
            const k = keyPrefix + e.name.slice(0, -OBJ.length);
            if (k.startsWith(prefix)) items.push({ sortKey: k, kind: 'obj', name: e.name, key: k });
          }
        }
        items.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
        for (const item of items) {
          if (item.kind === 'dir') {
            yield* walk(join(dir, item.name), item.key);
          } else {
            const info = await statKey(item.key);
            if (info) yield info; // deleted meanwhile: skip
          }
        }
      }
      yield* walk(objects, '');
    },

    async ping(): Promise<void> {
      assertOpen();
      await init();
      // a write probe: a read-only or vanished disk should fail readiness
      const probe = join(tmp, `ping-${randomUUID()}`);
      try {
        await writeFile(probe, '');
        await rm(probe, { force: true });
      } catch (err) {
        throw wrapError(`writing to blob store ${options.root}`, err);
      }
    },

    async close(): Promise<void> {
      closed = true;
    },
  };
}

function isMissing(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
