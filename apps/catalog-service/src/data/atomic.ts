/**
 * The catalog's unit of work: the shared TransactionRunner (a transaction when the server has them,
 * transient conflicts retried a bounded number of times, transactions in flight capped below the pool).
 */
export { TransactionContentionError, TransactionRunner as AtomicRunner, TRANSIENT_RETRY, type Session } from '@mt/stores';
