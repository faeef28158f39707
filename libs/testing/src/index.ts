export * from './test-stores';
export * from './test-logger';
