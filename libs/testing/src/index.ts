export * from './test-stores';
export * from './test-logger';
export * from './tcp-proxy';
export * from './slow-client';
export * from './keep-alive-client';
export * from './provider-replay/provider-replay';
