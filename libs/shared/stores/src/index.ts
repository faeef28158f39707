export * from './backoff';
export * from './mongo';
export * from './redis';
export * from './store-report';
