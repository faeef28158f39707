/** A small seeded PRNG (mulberry32): the same seed gives the same data set on every run and machine. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One of `items` with the given relative weights. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((sum, [, weight]) => sum + weight, 0);
    let left = this.next() * total;
    for (const [item, weight] of items) {
      left -= weight;
      if (left < 0) return item;
    }
    return items[items.length - 1]?.[0] as T;
  }
}

/**
 * Zipf-distributed ranks: rank r (0-based) is drawn with probability ∝ 1 / (r + 1 + shift)^exponent, like
 * word frequencies in natural language (a few very common words, a long tail of rare ones).
 */
export class ZipfSampler {
  private readonly cumulative: Float64Array;

  constructor(size: number, exponent = 1, shift = 2) {
    this.cumulative = new Float64Array(size);
    let sum = 0;
    for (let rank = 0; rank < size; rank++) {
      sum += 1 / Math.pow(rank + 1 + shift, exponent);
      this.cumulative[rank] = sum;
    }
    for (let rank = 0; rank < size; rank++) this.cumulative[rank] = (this.cumulative[rank] ?? 0) / sum;
  }

  sample(random: Random): number {
    const target = random.next();
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.cumulative[middle] ?? 1) < target) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
