// An append-only set of strings off the JS object graph: the UTF-8 bytes of every string in one
// arena and an open-addressing hash table of ids, all typed arrays (UTF-8: keys and terms are mostly
// ASCII, half the bytes of UTF-16). The memory index's term
// dictionary and key table use it: millions of Map entries (one heap string each) made every major
// GC mark millions of objects; here a million strings are a handful of array buffers.

/** The typed arrays a table is made of (persisted by its owner, and read back with fromParts). */
export interface StringTableParts {
  chars: Uint8Array;
  /** Start of string i in chars; ends[i] = starts[i + 1] (size + 1 entries used). */
  starts: Uint32Array;
  /** id + 1 per bucket, 0 when empty; a power of two in length. */
  buckets: Int32Array;
  size: number;
}

const encoder = new TextEncoder();
/** A string's UTF-8 bytes, in a buffer reused by every call. */
let scratch = new Uint8Array(256);
function utf8(s: string): number {
  if (s.length * 3 > scratch.length) scratch = new Uint8Array(s.length * 3);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return encoder.encodeInto(s, scratch).written;
    scratch[i] = c;
  }
  return s.length;
}

// FNV-1a over the bytes
function hashAt(chars: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ chars[i]!, 0x01000193);
  return h >>> 0;
}

export class StringTable {
  private chars: Uint8Array;
  private charLength: number;
  private starts: Uint32Array;
  private buckets: Int32Array;
  private count: number;
  /**
   * Bytes every string here starts with (-1 while empty): compare skips them. An owner's keys all
   * start with `["<owner id>","` (41 bytes), and ties between equal scores compare keys a lot.
   */
  private shared = -1;

  constructor(parts?: StringTableParts) {
    this.chars = parts?.chars ?? new Uint8Array(4_096);
    this.starts = parts?.starts ?? new Uint32Array(1_024);
    this.buckets = parts?.buckets ?? new Int32Array(2_048);
    this.count = parts?.size ?? 0;
    this.charLength = this.starts[this.count]!;
    if ((this.buckets.length & (this.buckets.length - 1)) !== 0 || this.starts.length <= this.count)
      throw new Error('string table: inconsistent parts');
    for (let id = 0; id < this.count && this.shared !== 0; id++) this.narrowShared(id);
  }

  /** Narrows shared to the bytes id's string has in common with the first string. */
  private narrowShared(id: number): void {
    const from = this.starts[id]!;
    const length = this.starts[id + 1]! - from;
    if (this.shared < 0) {
      this.shared = length;
      return;
    }
    const c = this.chars;
    const n = Math.min(this.shared, length);
    let i = 0;
    while (i < n && c[from + i] === c[i]) i++;
    this.shared = i;
  }

  get size(): number {
    return this.count;
  }

  /** The id of a string already in the table, or -1. */
  find(s: string): number {
    const n = utf8(s);
    const mask = this.buckets.length - 1;
    for (let b = hashAt(scratch, 0, n) & mask; ; b = (b + 1) & mask) {
      const id = this.buckets[b]! - 1;
      if (id < 0) return -1;
      if (this.equals(id, n)) return id;
    }
  }

  /** The id of the string, added when new (ids count up from 0). */
  intern(s: string): number {
    const n = utf8(s);
    const mask = this.buckets.length - 1;
    let b = hashAt(scratch, 0, n) & mask;
    for (; ; b = (b + 1) & mask) {
      const id = this.buckets[b]! - 1;
      if (id < 0) break;
      if (this.equals(id, n)) return id;
    }
    const id = this.count;
    if (this.charLength + n > this.chars.length) {
      // grown by half: the arena is the table's bulk, and a doubling would leave up to half unused
      const grown = new Uint8Array(Math.max(Math.ceil(this.chars.length * 1.5), this.charLength + n));
      grown.set(this.chars.subarray(0, this.charLength));
      this.chars = grown;
    }
    this.chars.set(scratch.subarray(0, n), this.charLength);
    this.charLength += n;
    if (id + 2 > this.starts.length) {
      const grown = new Uint32Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.starts[id + 1] = this.charLength;
    this.count += 1;
    if (this.shared !== 0) this.narrowShared(id);
    this.buckets[b] = id + 1;
    if (this.count * 2 > this.buckets.length) this.rehash();
    return id;
  }

  /** The string of an id. */
  get(id: number): string {
    const from = this.starts[id]!;
    return Buffer.from(this.chars.buffer, this.chars.byteOffset + from, this.starts[id + 1]! - from).toString(
      'utf8',
    );
  }

  /** The first UTF-8 byte of an id's string (-1 when empty), without making the string. */
  firstByte(id: number): number {
    const from = this.starts[id]!;
    return from < this.starts[id + 1]! ? this.chars[from]! : -1;
  }

  /** Code-unit order of two ids' strings (as JS `<` on the strings). */
  compare(a: number, b: number): number {
    if (a === b) return 0;
    const c = this.chars;
    const aFrom = this.starts[a]!;
    const aLen = this.starts[a + 1]! - aFrom;
    const bFrom = this.starts[b]!;
    const bLen = this.starts[b + 1]! - bFrom;
    const n = Math.min(aLen, bLen);
    for (let i = this.shared > 0 ? this.shared : 0; i < n; i++) {
      const x = c[aFrom + i]!;
      const y = c[bFrom + i]!;
      if (x === y) continue;
      // UTF-8 orders by code point, JS strings by UTF-16 unit: they differ only between U+E000–U+FFFF
      // and the astral planes, whose lead bytes are 0xEE and above
      if (x >= 0xee && y >= 0xee) {
        const sa = this.get(a);
        const sb = this.get(b);
        return sa < sb ? -1 : sa > sb ? 1 : 0;
      }
      return x - y;
    }
    return aLen - bLen;
  }

  /** Bytes held by the arrays (capacity, not just use). */
  bytes(): number {
    return this.chars.byteLength + this.starts.byteLength + this.buckets.byteLength;
  }

  /**
   * The arrays as of now without copying the strings (a snapshot written while interns go on): chars
   * and starts are only appended to (a grown array is a new one), so views of their used parts stay
   * true; the hash buckets change in place and are copied.
   */
  frozen(): StringTableParts {
    return {
      chars: this.chars.subarray(0, this.charLength),
      starts: this.starts.subarray(0, this.count + 1),
      buckets: this.buckets.slice(),
      size: this.count,
    };
  }

  /** Trimmed copies of the arrays (a snapshot: later interns do not change them). */
  parts(): StringTableParts {
    return {
      chars: this.chars.slice(0, this.charLength),
      starts: this.starts.slice(0, this.count + 1),
      buckets: this.buckets.slice(),
      size: this.count,
    };
  }

  /** Whether id's string is the n bytes in scratch. */
  private equals(id: number, n: number): boolean {
    const from = this.starts[id]!;
    if (this.starts[id + 1]! - from !== n) return false;
    for (let i = 0; i < n; i++) if (this.chars[from + i] !== scratch[i]) return false;
    return true;
  }

  private rehash(): void {
    const buckets = new Int32Array(this.buckets.length * 2);
    const mask = buckets.length - 1;
    for (let id = 0; id < this.count; id++) {
      let b = hashAt(this.chars, this.starts[id]!, this.starts[id + 1]!) & mask;
      while (buckets[b] !== 0) b = (b + 1) & mask;
      buckets[b] = id + 1;
    }
    this.buckets = buckets;
  }
}
