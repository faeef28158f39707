export * from './backoff';
export * from './mongo';
export * from './redis';
export * from './store-report';
export * from './semaphore';
export * from './transactions';
export * from './transient-conflicts';
export * from './keyed-mutex';
