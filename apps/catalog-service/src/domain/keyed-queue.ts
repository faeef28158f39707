/**
 * Runs tasks of one key one after the other, in arrival order, within this process; tasks of different
 * keys run concurrently. Memory: one entry per key with tasks queued, removed when its queue drains.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with queued or running tasks (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
