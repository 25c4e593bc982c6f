// A Map that keeps at most `maxEntries`, dropping the least recently used first: a cache that a process running for
// weeks may fill with whatever words its residents say, without growing for good.

export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly maxEntries: number) {
    if (!(maxEntries >= 1)) throw new Error(`a bounded cache keeps at least one entry (got ${maxEntries})`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value, marked most recently used; undefined when not cached. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Caches the value, dropping the least recently used entry when full. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
  }
}
