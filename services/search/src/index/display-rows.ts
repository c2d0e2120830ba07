// A large owner's hits' display fields (HIT_COLUMNS) for the memory index, not held on the heap: each
// row is serialised (a JSON array in HIT_COLUMNS order) into an append-only file in the owner's memory
// directory, with its offset and length per key in typed arrays; a query reads its ~20 hits back with
// positioned reads (served from the page cache, which the kernel can drop, unlike RSS). Recent writes
// wait in a small map and go to the file together. A rewritten or deleted row's old bytes stay in the
// file as garbage until the owner's index is built again (or a snapshot is read back).
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, rmSync, writeSync } from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import { HIT_COLUMNS, listOf } from './lancedb-rows.ts';
import { StringTable } from './string-table.ts';
import { readSnapshot, writeSnapshot } from './typed-snapshot.ts';

export type DisplayRecord = Record<string, unknown>;

/** Pending rows are written once they hold this many bytes. */
const FLUSH_BYTES = 256 * 1024;
const LIVE_PREFIX = 'rows-live-';
const SNAPSHOT_KIND = 'display-rows';
const SNAPSHOT_FORMAT = 1;
const DATA_PREFIX = 'display-rows-data-';

interface Meta {
  live: number;
  data: string;
  dataBytes: number;
}

function encode(row: DisplayRecord): Buffer {
  return Buffer.from(
    JSON.stringify(HIT_COLUMNS.map((c) => (c === 'hashtags' ? listOf<string>(row[c]) : (row[c] ?? null)))),
  );
}

function decode(bytes: Uint8Array): DisplayRecord {
  const values = JSON.parse(
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8'),
  ) as unknown[];
  const row: DisplayRecord = {};
  HIT_COLUMNS.forEach((c, i) => (row[c] = values[i]));
  return row;
}

export class OwnerDisplayRows {
  private readonly keys: StringTable;
  /** Per key id: the row's file offset (-1: none) and byte length. */
  private offsets: Float64Array;
  private lengths: Uint32Array;
  private readonly pending = new Map<number, Buffer>();
  private pendingBytes = 0;
  private live: number;
  private fileBytes: number;
  private fd: number;
  private readonly file: string;

  /** Rows of a new build: a fresh live file in dir (others left by earlier processes go). */
  constructor(
    dir: string,
    restored?: {
      keys: StringTable;
      offsets: Float64Array;
      lengths: Uint32Array;
      live: number;
      file: string;
      bytes: number;
    },
  ) {
    mkdirSync(dir, { recursive: true });
    if (restored) {
      this.file = restored.file;
      this.fd = openSync(this.file, 'r+');
    } else {
      // a live file of an earlier process is garbage; one still open in this process stays readable
      for (const name of readdirSync(dir))
        if (name.startsWith(LIVE_PREFIX)) rmSync(path.join(dir, name), { force: true });
      this.file = path.join(dir, `${LIVE_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}.dat`);
      this.fd = openSync(this.file, 'w+');
    }
    this.keys = restored?.keys ?? new StringTable();
    this.offsets = restored?.offsets ?? new Float64Array(1_024).fill(-1);
    this.lengths = restored?.lengths ?? new Uint32Array(1_024);
    this.live = restored?.live ?? 0;
    this.fileBytes = restored?.bytes ?? 0;
  }

  get size(): number {
    return this.live;
  }

  get(key: string): DisplayRecord | undefined {
    const id = this.keys.find(key);
    if (id < 0) return undefined;
    const waiting = this.pending.get(id);
    if (waiting) return decode(waiting);
    const offset = this.offsets[id]!;
    if (offset < 0) return undefined;
    const length = this.lengths[id]!;
    const buf = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const n = readSync(this.fd, buf, read, length - read, offset + read);
      if (n === 0) throw new Error(`display rows: ${this.file} ends before a row (truncated)`);
      read += n;
    }
    return decode(buf);
  }

  set(key: string, row: DisplayRecord): void {
    const id = this.keys.intern(key);
    this.ensure(id);
    if (!this.has(id)) this.live += 1;
    const bytes = encode(row);
    this.pendingBytes += bytes.length - (this.pending.get(id)?.length ?? 0);
    this.pending.set(id, bytes);
    this.offsets[id] = -1;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
  }

  delete(key: string): void {
    const id = this.keys.find(key);
    if (id < 0 || !this.has(id)) return;
    this.live -= 1;
    const waiting = this.pending.get(id);
    if (waiting) {
      this.pendingBytes -= waiting.length;
      this.pending.delete(id);
    }
    this.offsets[id] = -1;
  }

  /** Writes the pending rows to the file (one write). */
  flush(): void {
    if (this.pending.size === 0) return;
    const all = Buffer.concat([...this.pending.values()]);
    let at = 0;
    for (const [id, bytes] of this.pending) {
      this.offsets[id] = this.fileBytes + at;
      this.lengths[id] = bytes.length;
      at += bytes.length;
    }
    let written = 0;
    while (written < all.length)
      written += writeSync(this.fd, all, written, all.length - written, this.fileBytes + written);
    this.fileBytes += all.length;
    this.pending.clear();
    this.pendingBytes = 0;
  }

  /** Bytes of memory held (arrays and pending rows) and of file written, for the bench. */
  memory(): { heap: number; file: number } {
    return {
      heap: this.keys.bytes() + this.offsets.byteLength + this.lengths.byteLength + this.pendingBytes,
      file: this.fileBytes,
    };
  }

  /** Closes and removes the live file (the owner's index is dropped). */
  close(): void {
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
    rmSync(this.file, { force: true });
  }

  /** A snapshot in dir: the rows as of now (see freeze). */
  async saveTo(dir: string): Promise<void> {
    await this.freeze()(dir);
  }

  /**
   * The rows as of now, for a snapshot written while writes go on: returns its writer. The file is
   * only appended to, so its first `dataBytes` (recorded now) never change: the writer copies the
   * file (in the kernel, not through the heap) and cuts the copy there. The key table's strings are
   * written straight from its arrays; the offsets and lengths change in place and are copied.
   */
  freeze(): (dir: string) => Promise<void> {
    this.flush();
    const keys = this.keys.frozen();
    const arrays = {
      keyChars: keys.chars,
      keyStarts: keys.starts,
      keyBuckets: keys.buckets,
      offsets: this.offsets.slice(0, keys.size),
      lengths: this.lengths.slice(0, keys.size),
    };
    const meta: Meta = {
      live: this.live,
      data: `${DATA_PREFIX}${Date.now().toString(36)}${randomBytes(4).toString('hex')}.dat`,
      dataBytes: this.fileBytes,
    };
    const source = this.file;
    return async (dir) => {
      await mkdir(dir, { recursive: true });
      const copy = path.join(dir, meta.data);
      // (rows appended while this copies land past dataBytes: cut off, the arrays never point there)
      await copyFile(source, copy);
      await truncate(copy, meta.dataBytes);
      await writeSnapshot(dir, SNAPSHOT_KIND, SNAPSHOT_FORMAT, arrays, meta);
      for (const name of await readdir(dir))
        if (name.startsWith(DATA_PREFIX) && name !== meta.data)
          await rm(path.join(dir, name), { force: true });
    };
  }

  /**
   * The rows of saveTo's snapshot in dir, on a live copy of its file in liveDir (the owner's live
   * folder: not the snapshot's, which a later save removes); missing or truncated files throw.
   */
  static async loadFrom(dir: string, liveDir = dir): Promise<OwnerDisplayRows> {
    const { arrays, meta } = await readSnapshot(dir, SNAPSHOT_KIND, SNAPSHOT_FORMAT);
    const m = meta as Meta;
    const data = path.join(dir, path.basename(String(m.data)));
    const size = await stat(data).then(
      (s) => s.size,
      () => -1,
    );
    if (size < m.dataBytes)
      throw new Error(
        `display rows snapshot in ${dir}: ${data} holds ${Math.max(0, size)} of ${m.dataBytes} bytes (truncated or missing)`,
      );
    const starts = arrays.keyStarts as Uint32Array;
    const n = starts.length - 1;
    const offsets = arrays.offsets as Float64Array;
    const lengths = arrays.lengths as Uint32Array;
    if (offsets.length !== n || lengths.length !== n || offsets.some((o, i) => o + lengths[i]! > m.dataBytes))
      throw new Error(`display rows snapshot in ${dir}: arrays do not fit together (corrupt)`);
    await mkdir(liveDir, { recursive: true });
    const file = path.join(liveDir, `${LIVE_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}.dat`);
    await copyFile(data, file);
    await truncate(file, m.dataBytes);
    const keys = new StringTable({
      chars: arrays.keyChars as Uint8Array,
      starts,
      buckets: arrays.keyBuckets as Int32Array,
      size: n,
    });
    const rows = new OwnerDisplayRows(liveDir, {
      keys,
      offsets,
      lengths,
      live: m.live,
      file,
      bytes: m.dataBytes,
    });
    if (fstatSync(rows.fd).size !== m.dataBytes) throw new Error(`display rows: copying ${data} failed`);
    return rows;
  }

  private has(id: number): boolean {
    return this.pending.has(id) || this.offsets[id]! >= 0;
  }

  private ensure(id: number): void {
    if (id < this.offsets.length) return;
    const n = Math.max(id + 1, this.offsets.length * 2);
    const offsets = new Float64Array(n).fill(-1);
    offsets.set(this.offsets);
    this.offsets = offsets;
    const lengths = new Uint32Array(n);
    lengths.set(this.lengths);
    this.lengths = lengths;
  }
}
