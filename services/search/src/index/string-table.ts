// An append-only set of strings off the JS object graph: the characters of every string in one
// UTF-16 arena and an open-addressing hash table of ids, all typed arrays. The memory index's term
// dictionary and key table use it: millions of Map entries (one heap string each) made every major
// GC mark millions of objects; here a million strings are a handful of array buffers.

/** The typed arrays a table is made of (persisted by its owner, and read back with fromParts). */
export interface StringTableParts {
  chars: Uint16Array;
  /** Start of string i in chars; ends[i] = starts[i + 1] (size + 1 entries used). */
  starts: Uint32Array;
  /** id + 1 per bucket, 0 when empty; a power of two in length. */
  buckets: Int32Array;
  size: number;
}

function hashOf(s: string): number {
  // FNV-1a over UTF-16 code units
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function hashAt(chars: Uint16Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ chars[i]!, 0x01000193);
  return h >>> 0;
}

export class StringTable {
  private chars: Uint16Array;
  private charLength: number;
  private starts: Uint32Array;
  private buckets: Int32Array;
  private count: number;

  constructor(parts?: StringTableParts) {
    this.chars = parts?.chars ?? new Uint16Array(4_096);
    this.starts = parts?.starts ?? new Uint32Array(1_024);
    this.buckets = parts?.buckets ?? new Int32Array(2_048);
    this.count = parts?.size ?? 0;
    this.charLength = this.starts[this.count]!;
    if ((this.buckets.length & (this.buckets.length - 1)) !== 0 || this.starts.length <= this.count)
      throw new Error('string table: inconsistent parts');
  }

  get size(): number {
    return this.count;
  }

  /** The id of a string already in the table, or -1. */
  find(s: string): number {
    const mask = this.buckets.length - 1;
    for (let b = hashOf(s) & mask; ; b = (b + 1) & mask) {
      const id = this.buckets[b]! - 1;
      if (id < 0) return -1;
      if (this.equals(id, s)) return id;
    }
  }

  /** The id of the string, added when new (ids count up from 0). */
  intern(s: string): number {
    const mask = this.buckets.length - 1;
    let b = hashOf(s) & mask;
    for (; ; b = (b + 1) & mask) {
      const id = this.buckets[b]! - 1;
      if (id < 0) break;
      if (this.equals(id, s)) return id;
    }
    const id = this.count;
    if (this.charLength + s.length > this.chars.length) {
      const grown = new Uint16Array(Math.max(this.chars.length * 2, this.charLength + s.length));
      grown.set(this.chars.subarray(0, this.charLength));
      this.chars = grown;
    }
    for (let i = 0; i < s.length; i++) this.chars[this.charLength + i] = s.charCodeAt(i);
    this.charLength += s.length;
    if (id + 2 > this.starts.length) {
      const grown = new Uint32Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.starts[id + 1] = this.charLength;
    this.count += 1;
    this.buckets[b] = id + 1;
    if (this.count * 2 > this.buckets.length) this.rehash();
    return id;
  }

  /** The string of an id. */
  get(id: number): string {
    const from = this.starts[id]!;
    const to = this.starts[id + 1]!;
    let out = '';
    // in pieces: fromCharCode's argument list has a limit
    for (let i = from; i < to; i += 4_096)
      out += String.fromCharCode(...this.chars.subarray(i, Math.min(to, i + 4_096)));
    return out;
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
    for (let i = 0; i < n; i++) {
      const d = c[aFrom + i]! - c[bFrom + i]!;
      if (d !== 0) return d;
    }
    return aLen - bLen;
  }

  /** Bytes held by the arrays (capacity, not just use). */
  bytes(): number {
    return this.chars.byteLength + this.starts.byteLength + this.buckets.byteLength;
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

  private equals(id: number, s: string): boolean {
    const from = this.starts[id]!;
    if (this.starts[id + 1]! - from !== s.length) return false;
    for (let i = 0; i < s.length; i++) if (this.chars[from + i] !== s.charCodeAt(i)) return false;
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
