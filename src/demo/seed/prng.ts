// Seeded randomness for the demo corpus. Every entity draws from its own stream, derived from the
// corpus seed and the entity's key, so a row's values do not depend on how many rows came before
// it or on batch boundaries: the same seed always yields the same rows.

/** 32-bit FNV-1a over a string, used to derive stream seeds. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, key: string) {
    // sfc32 seeded from two independent hashes; a few warm-up rounds decorrelate close keys.
    this.a = fnv1a(`${seed}:${key}`);
    this.b = fnv1a(`${key}/${seed}`);
    this.c = (seed * 0x9e3779b1) >>> 0;
    this.d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let r = this.next() * total;
    for (const [v, w] of items) {
      r -= w;
      if (r < 0) return v;
    }
    return items[items.length - 1][0];
  }

  /** k distinct items, in a random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const n = Math.min(k, items.length);
    if (n * 3 < items.length) {
      const seen = new Set<number>();
      const out: T[] = [];
      while (out.length < n) {
        const i = Math.floor(this.next() * items.length);
        if (!seen.has(i)) {
          seen.add(i);
          out.push(items[i]);
        }
      }
      return out;
    }
    const copy = items.slice();
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, n);
  }
}

export const rngFor = (seed: number, key: string): Rng => new Rng(seed, key);
