/**
 * The catalog's unit of work: the shared TransactionRunner (a transaction when the server has them,
 * transient conflicts retried a bounded number of times, transactions in flight capped below the pool).
 */
export { TransactionRunner as AtomicRunner, type Session } from '@mt/stores';
