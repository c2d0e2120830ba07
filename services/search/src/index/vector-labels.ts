// The vector graph's bookkeeping between the table's string keys and usearch's integer labels, held
// in arrays indexed by label and an open-addressing hash table of labels (Int32Array), so a million
// entities cost a few bytes each instead of the ~50 of a JS Map<string, number> per direction, and
// the GC has no million-entry Map to trace.

const EMPTY = -1;

/** FNV-1a over the UTF-16 code units: keys are short ASCII strings, so this is quick enough. */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Labels are dense integers (freed ones are reused), each with its key and its partition (the
 * entity type's graph). `labelOf` finds a key's label in O(1) without a Map.
 */
export class VectorLabels {
  /** The key of each label; '' for a free label. */
  keys: string[] = [];
  /** The partition of each label (index into the graph's types); 255 for a free label. */
  parts = new Uint8Array(1_024).fill(255);
  private slots = new Int32Array(2_048).fill(EMPTY);
  private freeLabels: number[] = [];
  private live = 0;

  get size(): number {
    return this.live;
  }

  labelOf(key: string): number | undefined {
    const mask = this.slots.length - 1;
    for (let i = hashOf(key) & mask; ; i = (i + 1) & mask) {
      const label = this.slots[i]!;
      if (label === EMPTY) return undefined;
      if (this.keys[label] === key) return label;
    }
  }

  /** A new label for a key that has none. */
  add(key: string, part: number): number {
    const label = this.freeLabels.pop() ?? this.keys.length;
    if (label === this.keys.length) this.keys.push(key);
    else this.keys[label] = key;
    if (label >= this.parts.length) {
      const grown = new Uint8Array(this.parts.length * 2).fill(255);
      grown.set(this.parts);
      this.parts = grown;
    }
    this.parts[label] = part;
    this.live += 1;
    // load factor ≤ 1/2 keeps probe runs short
    if (this.live * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.insertSlot(label);
    return label;
  }

  /** Frees a key's label (backward-shift deletion keeps the probe runs unbroken). */
  remove(key: string): number | undefined {
    const mask = this.slots.length - 1;
    let i = hashOf(key) & mask;
    for (; ; i = (i + 1) & mask) {
      const label = this.slots[i]!;
      if (label === EMPTY) return undefined;
      if (this.keys[label] === key) break;
    }
    const label = this.slots[i]!;
    for (let j = (i + 1) & mask; this.slots[j] !== EMPTY; j = (j + 1) & mask) {
      const home = hashOf(this.keys[this.slots[j]!]!) & mask;
      // move j back into the hole at i unless its home lies cyclically in (i, j]
      if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
        this.slots[i] = this.slots[j]!;
        i = j;
      }
    }
    this.slots[i] = EMPTY;
    this.keys[label] = '';
    this.parts[label] = 255;
    this.freeLabels.push(label);
    this.live -= 1;
    return label;
  }

  /** Restores the bookkeeping saved by a graph snapshot (keys and partitions in label order). */
  static restore(keys: string[], parts: Uint8Array): VectorLabels {
    if (keys.length !== parts.length) throw new Error('keys and partitions differ in length');
    const labels = new VectorLabels();
    labels.keys = keys;
    labels.parts = new Uint8Array(Math.max(1_024, parts.length)).fill(255);
    labels.parts.set(parts);
    for (let label = keys.length - 1; label >= 0; label--) {
      if (keys[label] === '') {
        if (parts[label] !== 255) throw new Error(`label ${label} has a partition but no key`);
        labels.freeLabels.push(label);
      } else {
        if (parts[label] === 255) throw new Error(`label ${label} has a key but no partition`);
        labels.live += 1;
      }
    }
    labels.rehash(Math.max(2_048, 2 ** Math.ceil(Math.log2(labels.live * 2 + 1))));
    for (let label = 0; label < keys.length; label++) {
      if (keys[label] !== '' && labels.labelOf(keys[label]!) !== label)
        throw new Error(`key ${JSON.stringify(keys[label])} appears twice`);
    }
    return labels;
  }

  private insertSlot(label: number): void {
    const mask = this.slots.length - 1;
    let i = hashOf(this.keys[label]!) & mask;
    while (this.slots[i] !== EMPTY) i = (i + 1) & mask;
    this.slots[i] = label;
  }

  private rehash(capacity: number): void {
    this.slots = new Int32Array(capacity).fill(EMPTY);
    for (let label = 0; label < this.keys.length; label++) {
      if (this.keys[label] !== '' && this.parts[label] !== 255) this.insertSlot(label);
    }
  }
}
