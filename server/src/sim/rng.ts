// Seeded randomness for the deterministic layers: sim/ and world/ never use the global random source.

import { hashString } from '../protocol/hash';

/** A 32-bit string hash (FNV-1a), to derive independent streams from one seed. */
export { hashString };

/** mulberry32: small, fast, good enough for simulation choices. State is one uint32, so it serialises. */
export class Rng {
  constructor(private state: number) {
    this.state = state >>> 0;
  }

  static fromKey(seed: number, ...parts: Array<string | number>): Rng {
    return new Rng(hashString(`${seed}|${parts.join('|')}`));
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  getState(): number {
    return this.state;
  }
}
