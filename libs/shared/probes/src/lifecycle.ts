/** What the probes report about the process itself; main.ts flips these flags. */
export interface Lifecycle {
  started: boolean;
  shuttingDown: boolean;
  readonly startedAtMs: number;
}

export const createLifecycle = (): Lifecycle => ({ started: false, shuttingDown: false, startedAtMs: Date.now() });
