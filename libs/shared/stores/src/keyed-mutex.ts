/** One holder per key at a time; holders of one key run in arrival order, different keys in parallel. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  /** Keys with a holder or waiters (the map never keeps an idle key). */
  get size(): number {
    return this.tails.size;
  }

  async use<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const tail = previous.then(() => new Promise<void>((resolve) => (release = resolve)));
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Holds every key of `keys` (taken in sorted order, so two holders of overlapping sets never wait on each other in a cycle). */
  useAll<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const take = ([first, ...rest]: readonly string[]): Promise<T> => (first === undefined ? work() : this.use(first, () => take(rest)));
    return take([...new Set(keys)].sort());
  }
}
