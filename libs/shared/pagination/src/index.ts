export * from './cursor-codec';
export * from './cursor-params';
export * from './query-fingerprint';
export * from './cursor-walk';
