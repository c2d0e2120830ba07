// Typed arrays to disk and back for the memory index's snapshots: all of a structure's arrays in one
// data file (each 8-byte aligned) under a small JSON header that names the format version, the
// arrays and a CRC-32 of the data. Writes are atomic: the data file carries a fresh generation in
// its name, the header is written under a temporary name and renamed over the old one (the commit),
// and only then are older generations removed. A truncated or altered file fails loudly on read.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';

export type SnapshotArray = Uint8Array | Uint16Array | Int32Array | Uint32Array | Float64Array;

const CONSTRUCTORS = { Uint8Array, Uint16Array, Int32Array, Uint32Array, Float64Array };
type ArrayType = keyof typeof CONSTRUCTORS;

interface Header {
  kind: string;
  format: number;
  data: string;
  bytes: number;
  crc32: number;
  arrays: { name: string; type: ArrayType; offset: number; length: number }[];
  meta: unknown;
}

const pad = (n: number) => (n + 7) & ~7;
const PIECE = 4 << 20;

/** Writes the arrays and meta as `<kind>.json` + `<kind>-<generation>.bin` in dir. */
export async function writeSnapshot(
  dir: string,
  kind: string,
  format: number,
  arrays: Record<string, SnapshotArray>,
  meta: unknown,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  const generation = `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
  const data = `${kind}-${generation}.bin`;
  const entries: Header['arrays'] = [];
  let offset = 0;
  let crc = 0;
  const file = await open(path.join(dir, data), 'w');
  try {
    const zeros = new Uint8Array(8);
    for (const [name, a] of Object.entries(arrays)) {
      const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      entries.push({ name, type: a.constructor.name as ArrayType, offset, length: a.length });
      // in pieces of 4 MB, written straight from the array (no copy): each piece's CRC is a
      // millisecond or two of the loop, and the write itself runs off it
      for (let i = 0; i < bytes.length; i += PIECE) {
        const piece = bytes.subarray(i, Math.min(bytes.length, i + PIECE));
        await file.write(piece, 0, piece.length, offset + i);
        crc = crc32(piece, crc);
      }
      const gap = pad(bytes.length) - bytes.length;
      if (gap > 0) {
        await file.write(zeros, 0, gap, offset + bytes.length);
        crc = crc32(zeros.subarray(0, gap), crc);
      }
      offset += pad(bytes.length);
    }
    await file.sync();
  } finally {
    await file.close();
  }
  const header: Header = { kind, format, data, bytes: offset, crc32: crc, arrays: entries, meta };
  const tmp = path.join(dir, `${kind}.json.tmp-${generation}`);
  await writeFile(tmp, JSON.stringify(header));
  await rename(tmp, path.join(dir, `${kind}.json`));
  for (const name of await readdir(dir))
    if (name.startsWith(`${kind}-`) && name.endsWith('.bin') && name !== data)
      await rm(path.join(dir, name), { force: true });
}

/** Reads a snapshot written by writeSnapshot; throws a clear error when it is missing, truncated or corrupt. */
export async function readSnapshot(
  dir: string,
  kind: string,
  format: number,
): Promise<{ arrays: Record<string, SnapshotArray>; meta: unknown }> {
  const where = path.join(dir, `${kind}.json`);
  let header: Header;
  try {
    header = JSON.parse(await readFile(where, 'utf8')) as Header;
  } catch (err) {
    throw new Error(`${kind} snapshot in ${dir}: header unreadable (${(err as Error).message})`, {
      cause: err,
    });
  }
  if (header.kind !== kind || header.format !== format)
    throw new Error(
      `${kind} snapshot in ${dir}: format ${header.format} of ${header.kind}, expected ${format}`,
    );
  const raw = await readFile(path.join(dir, path.basename(header.data)));
  if (raw.length !== header.bytes)
    throw new Error(
      `${kind} snapshot in ${dir}: data is ${raw.length} bytes, expected ${header.bytes} (truncated?)`,
    );
  if (crc32(raw) !== header.crc32)
    throw new Error(`${kind} snapshot in ${dir}: data checksum mismatch (corrupt)`);
  // typed-array views need aligned offsets: copy when Node handed a pooled, unaligned buffer
  const bytes = raw.byteOffset % 8 === 0 ? raw : new Uint8Array(raw);
  const arrays: Record<string, SnapshotArray> = {};
  for (const a of header.arrays) {
    const Ctor = CONSTRUCTORS[a.type];
    if (!Ctor || a.offset + a.length * Ctor.BYTES_PER_ELEMENT > header.bytes)
      throw new Error(`${kind} snapshot in ${dir}: array ${a.name} out of bounds`);
    arrays[a.name] = new Ctor(bytes.buffer, bytes.byteOffset + a.offset, a.length);
  }
  return { arrays, meta: header.meta };
}
