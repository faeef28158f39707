import type { Session } from '@mt/stores';

export { TransactionContentionError, type Session } from '@mt/stores';

/**
 * The catalog's unit of work (data/atomic.ts): `work` runs in one transaction when the server has them,
 * again on a transient conflict; TransactionContentionError when it never got through.
 */
export interface AtomicRunner {
  run<T>(work: (session: Session) => Promise<T>): Promise<T>;
}
