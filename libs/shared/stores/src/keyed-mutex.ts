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
}
