// An index of an object's member keys by hash, for the scanners' duplicate check of objects with many members.

/** FNV-1a over UTF-16 code units: start from `KEY_HASH_SEED`, fold in each unit with `hashUnit`. */
export const KEY_HASH_SEED = 0x811c9dc5 | 0;

export function hashUnit(hash: number, unit: number): number {
  return Math.imul(hash ^ unit, 0x01000193);
}

/** The hash of a key. */
export function hashKey(name: string): number {
  let hash = KEY_HASH_SEED;
  for (let i = 0; i < name.length; i++) hash = hashUnit(hash, name.charCodeAt(i));
  return hash;
}

/**
 * Member ids (the caller's numbering) by their key's hash, in open addressing: where a Map would need each key as a
 * string, the scanner hashes a key in place in the text, and compares keys only when their hashes agree.
 */
export class KeyIndex {
  // id + 1 by bucket, 0 for an empty bucket, and the hash stored with it.
  private ids = new Int32Array(64);
  private hashes = new Int32Array(64);
  private count = 0;

  /** The first bucket holding `hash` (its id is `id(bucket)`), or -1; `next` gives the others. */
  find(hash: number): number {
    return this.scan(hash & (this.ids.length - 1), hash);
  }

  next(bucket: number, hash: number): number {
    return this.scan((bucket + 1) & (this.ids.length - 1), hash);
  }

  id(bucket: number): number {
    return this.ids[bucket]! - 1;
  }

  add(hash: number, id: number): void {
    // At most half full, so a probe soon meets an empty bucket.
    if (++this.count * 2 > this.ids.length) this.grow();
    this.place(hash, id + 1);
  }

  private scan(from: number, hash: number): number {
    const { ids, hashes } = this;
    const mask = ids.length - 1;
    for (let b = from; ; b = (b + 1) & mask) {
      if (ids[b] === 0) return -1;
      if (hashes[b] === hash) return b;
    }
  }

  private place(hash: number, stored: number): void {
    const { ids, hashes } = this;
    const mask = ids.length - 1;
    let b = hash & mask;
    while (ids[b] !== 0) b = (b + 1) & mask;
    ids[b] = stored;
    hashes[b] = hash;
  }

  private grow(): void {
    const { ids, hashes } = this;
    this.ids = new Int32Array(ids.length * 2);
    this.hashes = new Int32Array(ids.length * 2);
    for (let b = 0; b < ids.length; b++) if (ids[b] !== 0) this.place(hashes[b]!, ids[b]!);
  }
}
